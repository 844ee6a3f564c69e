/// `system.ping`: the health check and the transport benchmark's method. Answered on every service.
public enum SystemPing: TallyMethod {
    public static let name = "system.ping"
    public static let service = TallyService.system

    /// No params; `params` may be omitted, `{}` or null.
    public struct Params: Codable, Sendable, Hashable {
        public init() {}

        public init(from decoder: any Decoder) throws {}

        public func encode(to encoder: any Encoder) throws {
            _ = encoder.container(keyedBy: CodingKeys.self)
        }

        private enum CodingKeys: CodingKey {}
    }

    public struct Result: Codable, Sendable, Hashable {
        /// The worker's build version.
        public var serverVersion: String
        /// Protocol versions the worker serves.
        public var protocolVersions: [Int]
        /// Seconds since the worker process started.
        public var uptimeSeconds: Double
        /// The service that answered.
        public var service: String
        /// Which worker process answered (`host/pid`).
        public var worker: String
        /// Which of the process's MDP connections answered (0-based).
        public var connection: Int

        public init(
            serverVersion: String, protocolVersions: [Int], uptimeSeconds: Double, service: String, worker: String,
            connection: Int
        ) {
            self.serverVersion = serverVersion
            self.protocolVersions = protocolVersions
            self.uptimeSeconds = uptimeSeconds
            self.service = service
            self.worker = worker
            self.connection = connection
        }

        enum CodingKeys: String, CodingKey {
            case service, worker, connection
            case serverVersion = "server_version"
            case protocolVersions = "protocol_versions"
            case uptimeSeconds = "uptime_seconds"
        }
    }
}
