/// `system.describe`: what the answering worker serves on the service that was asked — its methods with the ids
/// of their JSON Schemas, the protocol versions and its build — so that a client can discover Tally as it would a
/// gRPC server by reflection. Answered on every service.
public enum SystemDescribe: TallyMethod {
    public static let name = "system.describe"
    public static let service = TallyService.system

    /// No params, as for `system.ping`.
    public typealias Params = SystemPing.Params
}

extension SystemDescribe.Method {
    /// `method`'s entry, its schema ids from its name.
    public init<M: TallyMethod>(_ method: M.Type) {
        self.init(name: M.name, paramsSchema: M.paramsSchemaID, resultSchema: M.resultSchemaID)
    }
}
