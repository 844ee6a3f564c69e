extension ClusterDocument {
    /// One service: its queue, its worker processes and its last minute.
    package struct ServiceSummary: Codable, Sendable, Hashable {
        package var name: String
        package var queued: Int
        /// How long the request at the head of the queue has waited, in milliseconds; `nil` with none queued.
        package var oldestWaitMilliseconds: Double?
        package var inFlight: Int
        /// Requests its worker connections can hold at once.
        package var credit: Int
        package var connections: Int
        /// Worker processes registered for it (all of them, listed or not).
        package var workerProcesses: Int
        package var processes: [WorkerProcess]
        /// Processes left out by `ClusterDocument.maximumProcessRows`.
        package var processesNotListed: Int
        package var lastMinute: Window

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
    package struct WorkerProcess: Codable, Sendable, Hashable {
        /// `host/pid` as the worker names itself; `nil` for a peer that names nothing (a plain MDP/0.1 worker).
        package var name: String?
        /// How the broker tells it apart: the instance a Tally worker names, or the connection's routing id (hex).
        package var id: String
        package var connections: Int
        package var credit: Int
        package var inFlight: Int
        /// Replies delivered from its current connections, and how many of them were error responses.
        package var served: Int
        package var errors: Int
        /// Milliseconds since the broker last heard from it.
        package var lastHeardMilliseconds: Double

        enum CodingKeys: String, CodingKey {
            case name, id, connections, credit
            case inFlight = "in_flight"
            case served, errors
            case lastHeardMilliseconds = "last_heard_ms"
        }
    }

    /// A service's requests over the last minute (fewer seconds just after the broker started).
    package struct Window: Codable, Sendable, Hashable {
        /// The seconds the window covers.
        package var seconds: Double
        /// Requests answered (by a worker or by the broker) per second.
        package var requestsPerSecond: Double
        /// Error responses by code, most frequent first: the broker's own answers (`overloaded`, `unavailable`, …)
        /// and workers' error responses.
        package var errors: [ErrorCount]
        /// Latency quantiles of delivered replies, from the broker receiving the request; `nil` with none.
        package var p50Milliseconds: Double?
        package var p99Milliseconds: Double?

        enum CodingKeys: String, CodingKey {
            case seconds
            case requestsPerSecond = "requests_per_second"
            case errors
            case p50Milliseconds = "p50_ms"
            case p99Milliseconds = "p99_ms"
        }
    }

    package struct ErrorCount: Codable, Sendable, Hashable {
        package var code: String
        package var count: Int

    }
}
