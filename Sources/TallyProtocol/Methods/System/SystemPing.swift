import TallyJSONCoding

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

extension SystemPing.Params: JSONDirectDecodable {
    /// `{}` or `null` (params left out): the methods without params take nothing (members the standard decoder
    /// ignores are its to read).
    public init?(direct cursor: inout JSONCursor) {
        guard cursor.null() || cursor.object({ _, _ in false }) else { return nil }
        self.init()
    }
}
