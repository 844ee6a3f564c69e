import Foundation

/// An IANA time zone name (`Europe/Berlin`), checked against the zone database when decoded.
public struct ZoneName: Codable, Hashable, Sendable, CustomStringConvertible {
    public let identifier: String
    /// The zone the database knows by that name, for computing in it.
    public let timeZone: TimeZone

    /// - Returns: `nil` when the zone database does not know `identifier`.
    public init?(_ identifier: String) {
        // Foundation also accepts forms like "GMT+5" or abbreviations; Tally accepts what the IANA database names
        // (Area/Location, plus UTC/GMT), so that every client's zone means the same thing everywhere.
        guard identifier.count <= 64, identifier == "UTC" || identifier == "GMT" || identifier.contains("/"),
            let timeZone = TimeZone(identifier: identifier)
        else { return nil }
        self.identifier = identifier
        self.timeZone = timeZone
    }

    public var description: String { identifier }

    public static func == (lhs: ZoneName, rhs: ZoneName) -> Bool { lhs.identifier == rhs.identifier }

    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let zone = ZoneName(text) else {
            let shown = text.count > 64 ? String(text.prefix(64)) + "…" : text
            throw JSONDecodingError(
                refusing: "'\(shown)' is not an IANA time zone (e.g. Europe/Berlin, America/New_York, UTC)",
                in: container)
        }
        self = zone
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }
}
