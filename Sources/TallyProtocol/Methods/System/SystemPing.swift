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

}
