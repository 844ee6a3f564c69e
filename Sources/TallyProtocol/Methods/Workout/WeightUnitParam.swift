import TallyCore

/// A weight unit on the wire: `"kg"` or `"lb"`.
public struct WeightUnitParam: Codable, Sendable, Hashable {
    public var unit: WeightUnit

    public init(_ unit: WeightUnit) { self.unit = unit }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let unit = WeightUnit(symbol: text) else {
            let shown = text.count > 16 ? String(text.prefix(16)) + "…" : text
            throw JSONDecodingError(refusing: "'\(shown)' is not a unit: expected \"kg\" or \"lb\"", in: container)
        }
        self.unit = unit
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(unit.symbol)
    }
}
