import Foundation

/// Where a worker process connects, what it serves and how it keeps its connections alive.
package struct WorkerConfiguration: Sendable, Hashable {
    /// Broker endpoints; the worker registers with every one of them (no single point of failure).
    package var brokers: [String]
    /// MDP services to serve.
    package var services: [String]
    /// Requests of one service this process holds at once per broker, computing or waiting to be computed: the
    /// credit its connections of that service offer together (`WorkerCapabilities.credit`). A broker that speaks
    /// only MDP/0.1 sends one request per connection at a time, whatever the credit.
    package var concurrency: Int = 16
    /// MDP connections per service per broker; `nil` for one per I/O thread, so that every thread computes every
    /// service (never more than `concurrency`). The connections share `concurrency` as credit, as evenly as it
    /// divides. Against an MDP/0.1 broker that ignores credit, set it to `concurrency` to hold as many requests as a
    /// Tally broker would give.
    package var connections: Int?
    /// I/O threads the connections are spread over; `nil` for one per processor core (never more threads than
    /// connections). With `RequestComputation.onIOThread` this is how many requests compute at once.
    package var ioThreads: Int?
    /// How often the worker sends HEARTBEAT.
    package var heartbeatInterval: Duration = .milliseconds(2500)
    /// Intervals of broker silence after which the worker reconnects.
    package var heartbeatLiveness: Int = 3
    /// Pause before reconnecting after the broker went silent or sent DISCONNECT.
    package var reconnectDelay: Duration = .seconds(1)
    /// What the process tells its brokers it is called (`WorkerCapabilities.name`; Tally's workers say `host/pid`),
    /// for their consoles; `nil` says nothing.
    package var name: String?

    package init(brokers: [String], services: [String]) {
        self.brokers = brokers
        self.services = services
    }

    /// When a connection whose broker host went silent is closed by the kernel (see `TCPLiveness`).
    var tcpLiveness: TCPLiveness {
        TCPLiveness(heartbeatInterval: heartbeatInterval, liveness: heartbeatLiveness)
    }

    /// Threads asked for, before the cap by connections: as configured, or one per core.
    var requestedThreads: Int { max(1, ioThreads ?? ProcessInfo.processInfo.activeProcessorCount) }

    /// Connections per service per broker.
    var connectionsPerService: Int { max(1, min(connections ?? requestedThreads, max(1, concurrency))) }

    /// The credit connection `number` (0-based among a service's connections to one broker) offers: the service's
    /// concurrency spread over its connections, the first ones taking one more where it does not divide evenly.
    func credit(ofConnection number: Int) -> Int {
        let total = max(1, concurrency)
        let connections = connectionsPerService
        return total / connections + (number < total % connections ? 1 : 0)
    }
}
