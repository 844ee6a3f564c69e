/// The unit a set's weight was logged in, and the unit a drill-down reports volumes in.
///
/// Users log in either unit and may mix them within one workout (a barbell in kg, a dumbbell in lb), so every
/// weight keeps its own unit until the moment it is reported, and is converted exactly once.
public enum WeightUnit: CaseIterable, Sendable, Hashable {
    case kilogram
    case pound

    /// The international avoirdupois pound, exactly.
    public static let kilogramsPerPound = 0.45359237

    /// The unit symbol, `kg` or `lb`.
    public var symbol: String {
        switch self {
        case .kilogram: "kg"
        case .pound: "lb"
        }
    }

    /// The unit with `symbol` (`kg`, `lb`), or `nil`.
    public init?(symbol: String) {
        var symbol = symbol
        guard let unit = symbol.withUTF8({ Self(utf8Symbol: $0) }) else { return nil }
        self = unit
    }

    /// The unit whose symbol (`symbol`) is spelled by the UTF-8 `bytes`, or `nil`: `init(symbol:)` without a
    /// `String`, for the JSON fast path (a two-year history has ~12,000 sets, each with its unit). The bytes are
    /// matched directly rather than against `symbol`, which would build two strings per set.
    public init?(utf8Symbol bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 2 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (UInt8(ascii: "k"), UInt8(ascii: "g")): self = .kilogram
        case (UInt8(ascii: "l"), UInt8(ascii: "b")): self = .pound
        default: return nil
        }
    }

    /// `value`, given in `unit`, expressed in this unit.
    public func converting(_ value: Double, from unit: WeightUnit) -> Double {
        switch (unit, self) {
        case (.kilogram, .kilogram), (.pound, .pound): value
        case (.pound, .kilogram): value * Self.kilogramsPerPound
        case (.kilogram, .pound): value / Self.kilogramsPerPound
        }
    }
}
