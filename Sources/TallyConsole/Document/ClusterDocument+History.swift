extension ClusterDocument {
    /// Something that went wrong, and how often since it was first seen.
    public struct Incident: Codable, Sendable, Hashable {
        /// `worker_expired`, `worker_lost` (a request went back to the queue), `worker_timed_out`,
        /// `request_poisoned`, `reply_refused`, `overloaded` or `unavailable` (an open set).
        public var kind: String
        /// The service it concerns; `nil` for services no worker registered (names only clients used).
        public var service: String?
        /// A fixed word for the cause (`not_served`, `id_mismatch`, …): incidents with the same kind, service and
        /// reason are one entry.
        public var reason: String
        /// The latest occurrence in words (a connection, a request's id and method, a service name).
        public var detail: String
        public var count: Int
        public var firstAt: String
        public var lastAt: String

        public init(
            kind: String, service: String?, reason: String, detail: String, count: Int, firstAt: String,
            lastAt: String
        ) {
            self.kind = kind
            self.service = service
            self.reason = reason
            self.detail = detail
            self.count = count
            self.firstAt = firstAt
            self.lastAt = lastAt
        }

        enum CodingKeys: String, CodingKey {
            case kind, service, reason, detail, count
            case firstAt = "first_at"
            case lastAt = "last_at"
        }
    }

    /// Points of requests per second and p99, oldest first, one per `stepSeconds`.
    public struct RateSeries: Codable, Sendable, Hashable {
        public var stepSeconds: Double
        public var points: [Point]

        public init(stepSeconds: Double, points: [Point]) {
            self.stepSeconds = stepSeconds
            self.points = points
        }

        public struct Point: Codable, Sendable, Hashable {
            /// The end of the step (RFC 3339, UTC).
            public var at: String
            public var requestsPerSecond: Double
            /// `nil` for a step without a delivered reply.
            public var p99Milliseconds: Double?

            public init(at: String, requestsPerSecond: Double, p99Milliseconds: Double?) {
                self.at = at
                self.requestsPerSecond = requestsPerSecond
                self.p99Milliseconds = p99Milliseconds
            }

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
