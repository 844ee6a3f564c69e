/// Typed reads of one JSON object's members for `JSONFastDecodable`, with the same conversions as the decoder.
/// Every read answers `nil` for "not the plain case", so that the caller can fall back to `init(from:)`.
public struct JSONObjectReader {
    let document: JSONDocument
    let node: Int

    /// The member's value node and kind, or `nil` if absent.
    private func member(_ name: String) -> (node: Int, kind: JSONNode.Kind)? {
        document.member(named: name, inObject: node).map { ($0, document.nodes[$0].kind) }
    }

    /// A required integer: `nil` unless present, a number, and an integer that fits.
    public func int(_ name: String) -> Int? {
        guard let (value, kind) = member(name), kind == .number else { return nil }
        return document.tape.integer(at: value, as: Int.self)
    }

    /// An optional integer: `.some(nil)` when absent or null, `nil` when present but not a fitting integer.
    public func optionalInt(_ name: String) -> Int?? {
        guard let (value, kind) = member(name), kind != .null else { return .some(nil) }
        guard kind == .number, let number = document.tape.integer(at: value, as: Int.self) else { return nil }
        return .some(number)
    }

    /// A required double: `nil` unless present and a number a double holds.
    public func double(_ name: String) -> Double? {
        guard let (value, kind) = member(name), kind == .number else { return nil }
        return document.tape.double(at: value)
    }

    /// An optional double: `.some(nil)` when absent or null, `nil` when present but not a number a double holds.
    public func optionalDouble(_ name: String) -> Double?? {
        guard let (value, kind) = member(name), kind != .null else { return .some(nil) }
        guard kind == .number, let number = document.tape.double(at: value) else { return nil }
        return .some(number)
    }

    /// A required string: `nil` unless present and a string.
    public func string(_ name: String) -> String? {
        guard let (value, kind) = member(name), kind == .string else { return nil }
        return document.tape.string(at: value)
    }
}
