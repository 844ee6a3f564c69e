import Foundation
import TallyJSONCoding

/// An IANA time zone name (`Europe/Berlin`), checked against the zone database when decoded.
///
/// Every name the tz database gives a zone or a link is one (`Europe/Berlin`, `US/Eastern`, `Asia/Calcutta`, `GB`,
/// `Japan`, `EST5EDT`, `Zulu`: a backend may have stored any of them), and only those: Foundation also resolves
/// abbreviations (`PST`, `BST`), offsets (`GMT+5`) and ICU's own aliases, which mean different things on
/// different systems, so they are refused. The name stays as the client sent it, and answers echo it.
public struct ZoneName: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The name as the client sent it (`Europe/Berlin`, or a link such as `US/Eastern`), echoed as it is.
    public let identifier: String
    /// The zone the database knows by that name, for computing in it.
    public let timeZone: TimeZone

    /// - Returns: `nil` when the zone database does not know `identifier`.
    public init?(_ identifier: String) {
        guard Self.databaseNames.contains(identifier), let timeZone = TimeZone(identifier: identifier) else {
            return nil
        }
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
