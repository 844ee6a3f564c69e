import DequeModule

/// The broker's state at one moment, for metrics and health.
package struct BrokerSnapshot: Sendable, Hashable {
    /// One service's queue and the worker connections registered for it.
    ///
    /// In Majordomo a "worker" is one connection (one READY). A Tally worker process opens several per service
    /// (`--connections`), each with its own credit, so counting connections says little about how many processes
    /// serve a service: `workerProcesses` counts those, grouping connections by the instance named in READY
    /// (`WorkerCapabilities.instance`); a plain MDP/0.1 connection, which names none, is a process of its own.
    package struct ServiceState: Sendable, Hashable {
        package var queued: Int
        /// Worker connections registered for the service.
        package var workers: Int
        /// Connections with room for one more request (a connection with credit 16 holding 15 is one of them).
        package var idleWorkers: Int
        /// Worker processes with at least one connection registered for the service.
        package var workerProcesses: Int
        /// Requests the service's connections can hold at once: the sum of their credit (1 for MDP/0.1).
        package var credit: Int
        /// Requests sent to the service's connections and not yet answered.
        package var inFlight: Int
        /// How long the request at the head of the queue has waited; `nil` with nothing queued. Detail only
        /// (`BrokerStateMachine.detailedSnapshot(now:)`).
        package var oldestWait: Duration?
        /// The worker processes registered for the service, by name then id. Detail only.
        package var processes: [WorkerProcess]

        package init(
            queued: Int = 0, workers: Int = 0, idleWorkers: Int = 0, workerProcesses: Int = 0, credit: Int = 0,
            inFlight: Int = 0, oldestWait: Duration? = nil, processes: [WorkerProcess] = []
        ) {
            self.queued = queued
            self.workers = workers
            self.idleWorkers = idleWorkers
            self.workerProcesses = workerProcesses
            self.credit = credit
            self.inFlight = inFlight
            self.oldestWait = oldestWait
            self.processes = processes
        }
    }

    package var services: [String: ServiceState]
    package var isDraining: Bool
    /// Open connections of peers (clients and workers alike) to the broker's socket, as its socket monitor counts
    /// them (accepted minus disconnected); `nil` where nothing counts them (a state machine alone). Detail only.
    package var peerConnections: Int?

    package init(services: [String: ServiceState], isDraining: Bool, peerConnections: Int? = nil) {
        self.services = services
        self.isDraining = isDraining
        self.peerConnections = peerConnections
    }

    /// Requests waiting in all queues.
    package var queued: Int { services.values.reduce(0) { $0 + $1.queued } }
    /// Registered worker connections of all services.
    package var workers: Int { services.values.reduce(0) { $0 + $1.workers } }
}

extension BrokerStateMachine {
    /// The current queues and workers. Walks every connection: for scrapes and tests, not for the message path.
    package var snapshot: BrokerSnapshot {
        var states: [Int: BrokerSnapshot.ServiceState] = [:]
        for slot in services.slots {
            let service = services[slot]
            states[slot] = BrokerSnapshot.ServiceState(
                queued: service.queue.count, workers: service.workerCount, idleWorkers: service.available.count)
        }
        // A process serving several services counts once in each of them.
        var processes: [Int: Set<Int>] = [:]
        for worker in workers.allValues {
            states[worker.service]?.credit += worker.credit
            states[worker.service]?.inFlight += worker.held.count
            processes[worker.service, default: []].insert(worker.instance)
        }
        var named: [String: BrokerSnapshot.ServiceState] = [:]
        for (slot, var state) in states {
            state.workerProcesses = processes[slot]?.count ?? 0
            named[services[slot].name] = state
        }
        return BrokerSnapshot(services: named, isDraining: isDraining)
    }
}
