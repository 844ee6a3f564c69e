/// `system.describe`: what the answering worker serves on the service that was asked — its methods with the ids
/// of their JSON Schemas, the protocol versions and its build — so that a client can discover Tally as it would a
/// gRPC server by reflection. Answered on every service.
public enum SystemDescribe: TallyMethod {
    public static let name = "system.describe"
    public static let service = TallyService.system

    /// No params, as for `system.ping`.
    public typealias Params = SystemPing.Params

    /// One method the answering service serves.
    public struct Method: Codable, Sendable, Hashable {
        /// `area.name`.
        public var name: String
        /// The `$id` of its params schema in Protocol/schemas.
        public var paramsSchema: String
        /// The `$id` of its result schema.
        public var resultSchema: String

        public init(name: String, paramsSchema: String, resultSchema: String) {
            self.name = name
            self.paramsSchema = paramsSchema
            self.resultSchema = resultSchema
        }

        /// `method`'s entry, its schema ids from its name.
        public init<M: TallyMethod>(_ method: M.Type) {
            self.init(name: M.name, paramsSchema: M.paramsSchemaID, resultSchema: M.resultSchemaID)
        }

        enum CodingKeys: String, CodingKey {
            case name
            case paramsSchema = "params_schema"
            case resultSchema = "result_schema"
        }
    }

    public struct Result: Codable, Sendable, Hashable {
        /// The service that answered; `methods` are the ones it serves.
        public var service: String
        /// The methods served on `service`, sorted by name: its own and the `system` ones.
        public var methods: [Method]
        /// Protocol versions the worker serves.
        public var protocolVersions: [Int]
        /// The `$id`s of the envelope schemas every method shares.
        public var requestSchema: String
        public var responseSchema: String
        /// The worker's build version.
        public var serverVersion: String
        /// Which worker process answered (`host/pid`).
        public var worker: String

        public init(
            service: String, methods: [Method], protocolVersions: [Int], serverVersion: String, worker: String,
            requestSchema: String = ProtocolSchema.request, responseSchema: String = ProtocolSchema.response
        ) {
            self.service = service
            self.methods = methods
            self.protocolVersions = protocolVersions
            self.requestSchema = requestSchema
            self.responseSchema = responseSchema
            self.serverVersion = serverVersion
            self.worker = worker
        }

        enum CodingKeys: String, CodingKey {
            case service, methods, worker
            case protocolVersions = "protocol_versions"
            case requestSchema = "request_schema"
            case responseSchema = "response_schema"
            case serverVersion = "server_version"
        }
    }
}
