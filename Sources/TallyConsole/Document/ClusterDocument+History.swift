extension ClusterDocument {
    /// Something that went wrong, and how often since it was first seen.
    package struct Incident: Codable, Sendable, Hashable {
        /// `worker_expired`, `worker_lost` (a request went back to the queue), `worker_timed_out`,
        /// `request_poisoned`, `reply_refused`, `overloaded` or `unavailable` (an open set).
        package var kind: String
        /// The service it concerns; `nil` for services no worker registered (names only clients used).
        package var service: String?
        /// A fixed word for the cause (`not_served`, `id_mismatch`, …): incidents with the same kind, service and
        /// reason are one entry.
        package var reason: String
        /// The latest occurrence in words (a connection, a request's id and method, a service name).
        package var detail: String
        package var count: Int
        package var firstAt: String
        package var lastAt: String

        enum CodingKeys: String, CodingKey {
            case kind, service, reason, detail, count
            case firstAt = "first_at"
            case lastAt = "last_at"
        }
    }

    /// Points of requests per second and p99, oldest first, one per `stepSeconds`.
    package struct RateSeries: Codable, Sendable, Hashable {
        package var stepSeconds: Double
        package var points: [Point]

        package struct Point: Codable, Sendable, Hashable {
            /// The end of the step (RFC 3339, UTC).
            package var at: String
            package var requestsPerSecond: Double
            /// `nil` for a step without a delivered reply.
            package var p99Milliseconds: Double?

            enum CodingKeys: String, CodingKey {
                case at
                case requestsPerSecond = "requests_per_second"
                case p99Milliseconds = "p99_ms"
            }
        }

        enum CodingKeys: String, CodingKey {
            case stepSeconds = "step_seconds"
            case points
        }
    }
}
