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

    /// An optional string: `.some(nil)` when absent or null, `nil` when present but not a string.
    public func optionalString(_ name: String) -> String?? {
        guard let (value, kind) = member(name), kind != .null else { return .some(nil) }
        guard kind == .string else { return nil }
        return .some(document.tape.string(at: value))
    }

    /// A required array whose every element is a plain `Element` object: `nil` unless all of it takes the fast
    /// path (then the caller falls back, and the standard decoder reports exactly what is wrong).
    public func array<Element: JSONFastDecodable>(_ name: String, of type: Element.Type) -> [Element]? {
        guard let (value, kind) = member(name), kind == .array else { return nil }
        let count = Int(document.nodes[value].length)
        var elements: [Element] = []
        elements.reserveCapacity(count)
        var child = value + 1
        for _ in 0..<count {
            guard let element = Self.plain(Element.self, document: document, node: child) else { return nil }
            elements.append(element)
            child = Int(document.nodes[child].next)
        }
        return elements
    }

    /// An optional plain `Nested` object: `.some(nil)` when absent or null, `nil` when present but not plain.
    public func optionalObject<Nested: JSONFastDecodable>(_ name: String, of type: Nested.Type) -> Nested?? {
        guard let (value, kind) = member(name), kind != .null else { return .some(nil) }
        return Self.plain(Nested.self, document: document, node: value).map { .some($0) }
    }

    /// `node` read by `Fast`'s fast path, under the same conditions as the decoder's own use of it.
    private static func plain<Fast: JSONFastDecodable>(_ type: Fast.Type, document: JSONDocument, node: Int) -> Fast? {
        let header = document.nodes[node]
        guard header.kind == .object, header.length <= JSONTape.duplicateCheckLimit else { return nil }
        return Fast(fastFrom: JSONObjectReader(document: document, node: node))
    }
}
