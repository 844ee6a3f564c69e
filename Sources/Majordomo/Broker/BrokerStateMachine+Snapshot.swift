import DequeModule

/// The broker's state at one moment, for metrics and health.
public struct BrokerSnapshot: Sendable, Hashable {
    public struct ServiceState: Sendable, Hashable {
        public var queued: Int
        public var workers: Int
        public var idleWorkers: Int
    }

    public var services: [String: ServiceState]
    public var isDraining: Bool

    /// Requests waiting in all queues.
    public var queued: Int { services.values.reduce(0) { $0 + $1.queued } }
    /// Registered workers of all services.
    public var workers: Int { services.values.reduce(0) { $0 + $1.workers } }
}

extension BrokerStateMachine {
    /// The current queues and workers.
    public var snapshot: BrokerSnapshot {
        var states: [String: BrokerSnapshot.ServiceState] = [:]
        for service in services.allValues {
            states[service.name] = BrokerSnapshot.ServiceState(
                queued: service.queue.count, workers: service.workerCount, idleWorkers: service.available.count)
        }
        return BrokerSnapshot(services: states, isDraining: isDraining)
    }
}
