extension ClusterDocument {
    /// One service: its queue, its worker processes and its last minute.
    public struct ServiceSummary: Codable, Sendable, Hashable {
        public var name: String
        public var queued: Int
        /// How long the request at the head of the queue has waited, in milliseconds; `nil` with none queued.
        public var oldestWaitMilliseconds: Double?
        public var inFlight: Int
        /// Requests its worker connections can hold at once.
        public var credit: Int
        public var connections: Int
        /// Worker processes registered for it (all of them, listed or not).
        public var workerProcesses: Int
        public var processes: [WorkerProcess]
        /// Processes left out by `ClusterDocument.maximumProcessRows`.
        public var processesNotListed: Int
        public var lastMinute: Window

        public init(
            name: String, queued: Int, oldestWaitMilliseconds: Double?, inFlight: Int, credit: Int,
            connections: Int, workerProcesses: Int, processes: [WorkerProcess], processesNotListed: Int,
            lastMinute: Window
        ) {
            self.name = name
            self.queued = queued
            self.oldestWaitMilliseconds = oldestWaitMilliseconds
            self.inFlight = inFlight
            self.credit = credit
            self.connections = connections
            self.workerProcesses = workerProcesses
            self.processes = processes
            self.processesNotListed = processesNotListed
            self.lastMinute = lastMinute
        }

        enum CodingKeys: String, CodingKey {
            case name, queued
            case oldestWaitMilliseconds = "oldest_wait_ms"
            case inFlight = "in_flight"
            case credit, connections
            case workerProcesses = "worker_processes"
            case processes
            case processesNotListed = "processes_not_listed"
            case lastMinute = "last_minute"
        }
    }

    /// One worker process of a service (its connections for that service together).
    public struct WorkerProcess: Codable, Sendable, Hashable {
        /// `host/pid` as the worker names itself; `nil` for a peer that names nothing (a plain MDP/0.1 worker).
        public var name: String?
        /// How the broker tells it apart: the instance a Tally worker names, or the connection's routing id (hex).
        public var id: String
        public var connections: Int
        public var credit: Int
        public var inFlight: Int
        /// Replies delivered from its current connections, and how many of them were error responses.
        public var served: Int
        public var errors: Int
        /// Milliseconds since the broker last heard from it.
        public var lastHeardMilliseconds: Double

        public init(
            name: String?, id: String, connections: Int, credit: Int, inFlight: Int, served: Int, errors: Int,
            lastHeardMilliseconds: Double
        ) {
            self.name = name
            self.id = id
            self.connections = connections
            self.credit = credit
            self.inFlight = inFlight
            self.served = served
            self.errors = errors
            self.lastHeardMilliseconds = lastHeardMilliseconds
        }

        enum CodingKeys: String, CodingKey {
            case name, id, connections, credit
            case inFlight = "in_flight"
            case served, errors
            case lastHeardMilliseconds = "last_heard_ms"
        }
    }

    /// A service's requests over the last minute (fewer seconds just after the broker started).
    public struct Window: Codable, Sendable, Hashable {
        /// The seconds the window covers.
        public var seconds: Double
        /// Requests answered (by a worker or by the broker) per second.
        public var requestsPerSecond: Double
        /// Error responses by code, most frequent first: the broker's own answers (`overloaded`, `unavailable`, …)
        /// and workers' error responses.
        public var errors: [ErrorCount]
        /// Latency quantiles of delivered replies, from the broker receiving the request; `nil` with none.
        public var p50Milliseconds: Double?
        public var p99Milliseconds: Double?

        public init(
            seconds: Double, requestsPerSecond: Double, errors: [ErrorCount], p50Milliseconds: Double?,
            p99Milliseconds: Double?
        ) {
            self.seconds = seconds
            self.requestsPerSecond = requestsPerSecond
            self.errors = errors
            self.p50Milliseconds = p50Milliseconds
            self.p99Milliseconds = p99Milliseconds
        }

        enum CodingKeys: String, CodingKey {
            case seconds
            case requestsPerSecond = "requests_per_second"
            case errors
            case p50Milliseconds = "p50_ms"
            case p99Milliseconds = "p99_ms"
        }
    }

    public struct ErrorCount: Codable, Sendable, Hashable {
        public var code: String
        public var count: Int

        public init(code: String, count: Int) {
            self.code = code
            self.count = count
        }
    }
}
