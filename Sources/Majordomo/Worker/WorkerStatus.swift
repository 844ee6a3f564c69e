/// How a worker's connections stand, for health checks.
package struct WorkerStatus: Sendable, Hashable {
    package struct ServiceState: Sendable, Hashable {
        /// Connections with an open socket.
        package var connected: Int
        /// Connections the broker has answered since they connected (so it knows them).
        package var registered: Int
        /// Requests being computed.
        package var inFlight: Int
    }

    package var services: [String: ServiceState]
    package var isDraining: Bool

    /// Adds another I/O thread's connections.
    mutating func merge(_ other: WorkerStatus) {
        for (service, state) in other.services {
            var sum = services[service] ?? .init(connected: 0, registered: 0, inFlight: 0)
            sum.connected += state.connected
            sum.registered += state.registered
            sum.inFlight += state.inFlight
            services[service] = sum
        }
        isDraining = isDraining || other.isDraining
    }

    /// Ready to serve: not draining, and every service registered with at least one broker.
    package var isReady: Bool {
        !isDraining && !services.isEmpty && services.values.allSatisfy { $0.registered > 0 }
    }
}
