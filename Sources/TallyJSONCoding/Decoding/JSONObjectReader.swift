/// Typed reads of one JSON object's members for `JSONFastDecodable`, with the same conversions as the decoder.
/// Every read answers `nil` for "not the plain case", so that the caller can fall back to `init(from:)`.
///
/// Member names are `StaticString`s: their UTF-8 is compared with the key's bytes in place, with no `String` to
/// bridge, retain or copy (a two-year workout history is ~50,000 member reads). The generic reads are
/// `@inlinable`, so that each element type gets its own specialization instead of looking up `[Element]`'s
/// metadata at run time for every array.
public struct JSONObjectReader {
    let document: JSONDocument
    let node: Int

    /// The member's value node and kind, or `nil` if absent.
    private func member(_ name: StaticString) -> (node: Int, kind: JSONNode.Kind)? {
        name.withUTF8Buffer { document.member(utf8: $0, inObject: node) }.map { ($0, document.nodes[$0].kind) }
    }

    /// A required integer: `nil` unless present, a number, and an integer that fits.
    public func int(_ name: StaticString) -> Int? {
        guard let (value, kind) = member(name), kind == .number else { return nil }
        return document.tape.integer(at: value, as: Int.self)
    }

    /// An optional integer: `.some(nil)` when absent or null, `nil` when present but not a fitting integer.
    public func optionalInt(_ name: StaticString) -> Int?? {
        guard let (value, kind) = member(name), kind != .null else { return .some(nil) }
        guard kind == .number, let number = document.tape.integer(at: value, as: Int.self) else { return nil }
        return .some(number)
    }

    /// A required double: `nil` unless present and a number a double holds.
    public func double(_ name: StaticString) -> Double? {
        guard let (value, kind) = member(name), kind == .number else { return nil }
        return document.tape.double(at: value)
    }

    /// An optional double: `.some(nil)` when absent or null, `nil` when present but not a number a double holds.
    public func optionalDouble(_ name: StaticString) -> Double?? {
        guard let (value, kind) = member(name), kind != .null else { return .some(nil) }
        guard kind == .number, let number = document.tape.double(at: value) else { return nil }
        return .some(number)
    }

    /// A required string: `nil` unless present and a string.
    public func string(_ name: StaticString) -> String? {
        guard let (value, kind) = member(name), kind == .string else { return nil }
        return document.tape.string(at: value)
    }

    /// An optional string: `.some(nil)` when absent or null, `nil` when present but not a string.
    public func optionalString(_ name: StaticString) -> String?? {
        guard let (value, kind) = member(name), kind != .null else { return .some(nil) }
        guard kind == .string else { return nil }
        return .some(document.tape.string(at: value))
    }

    /// A required string member parsed straight from its UTF-8 bytes (a date, a timestamp, a unit symbol),
    /// without building a `String`: `nil` unless present, a string without escapes, and accepted by `parse`.
    /// An escaped string is not the plain case: the fallback decodes it (to the same value, or the same error).
    @inlinable
    public func utf8<Value>(_ name: StaticString, _ parse: (UnsafeBufferPointer<UInt8>) -> Value?) -> Value? {
        guard let bytes = unescapedString(name) else { return nil }
        return parse(bytes)
    }

    /// The bytes of the string member `name` when it has no escapes (valid while the document is).
    @usableFromInline
    func unescapedString(_ name: StaticString) -> UnsafeBufferPointer<UInt8>? {
        guard let (value, kind) = member(name), kind == .string else { return nil }
        return document.tape.unescapedBytes(at: value)
    }

    /// A required array whose every element is a plain `Element` object: `nil` unless all of it takes the fast
    /// path (then the caller falls back, and the standard decoder reports exactly what is wrong).
    @inlinable
    public func array<Element: JSONFastDecodable>(_ name: StaticString, of type: Element.Type) -> [Element]? {
        guard let (first, count) = arrayMember(name) else { return nil }
        // Written in place into storage of the exact size: `reserveCapacity` and `append` went through the
        // array's generic growth and uniqueness checks for each of ~15,000 arrays and their elements.
        var isPlain = true
        let elements = [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            var child = first
            while initialized < count {
                guard let reader = plainObject(at: child), let element = Element(fastFrom: reader) else {
                    isPlain = false
                    return
                }
                buffer.initializeElement(at: initialized, to: element)
                initialized += 1
                child = node(after: child)
            }
        }
        return isPlain ? elements : nil
    }

    /// An optional plain `Nested` object: `.some(nil)` when absent or null, `nil` when present but not plain.
    @inlinable
    public func optionalObject<Nested: JSONFastDecodable>(_ name: StaticString, of type: Nested.Type) -> Nested?? {
        guard let value = nonNullMember(name) else { return .some(nil) }
        guard let reader = plainObject(at: value) else { return nil }
        return Nested(fastFrom: reader).map { .some($0) }
    }

    /// The first element's node and the element count of the array member `name`, or `nil` if it is not one.
    @usableFromInline
    func arrayMember(_ name: StaticString) -> (first: Int, count: Int)? {
        guard let (value, kind) = member(name), kind == .array else { return nil }
        return (value + 1, Int(document.nodes[value].length))
    }

    /// The value node of member `name`, or `nil` if it is absent or null.
    @usableFromInline
    func nonNullMember(_ name: StaticString) -> Int? {
        guard let (value, kind) = member(name), kind != .null else { return nil }
        return value
    }

    /// A reader of `node` when it is an object that the fast path may read (the decoder's own condition).
    @usableFromInline
    func plainObject(at node: Int) -> JSONObjectReader? {
        let header = document.nodes[node]
        guard header.kind == .object, header.length <= JSONTape.duplicateCheckLimit else { return nil }
        return JSONObjectReader(document: document, node: node)
    }

    /// The node of the value after `node`'s subtree: its next sibling in an array.
    @usableFromInline
    func node(after node: Int) -> Int { Int(document.nodes[node].next) }
}
