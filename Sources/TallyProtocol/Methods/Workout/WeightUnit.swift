/// A weight unit on the wire: `"kg"` or `"lb"`. A closed set.
public enum WeightUnit: String, Codable, Sendable, Hashable, CaseIterable, ClosedSetName {
    static let noun = "a unit"

    /// Kilograms, `"kg"`: the unit of `workout.day`'s and `workout.detail`'s results when the params name none.
    case kilogram = "kg"
    /// Pounds, `"lb"`: 0.45359237 kg exactly.
    case pound = "lb"

    /// The unit whose symbol the UTF-8 `bytes` spell, or `nil`: for the JSON fast path (a two-year history has
    /// ~12,000 sets, each with its unit), which matches the bytes without building a `String`.
    @usableFromInline package init?(utf8Symbol bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 2 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (UInt8(ascii: "k"), UInt8(ascii: "g")): self = .kilogram
        case (UInt8(ascii: "l"), UInt8(ascii: "b")): self = .pound
        default: return nil
        }
    }
}
