/// A type that can also write itself as a JSON object without Codable's containers. Worth it only for elements
/// of lists in responses: per member, the keyed container costs a box, generic metadata lookups and several
/// levels of dynamic dispatch, which for a small result type is most of the encode.
///
/// `TallyJSONEncoder` uses `writeMembers(to:)` wherever such a value is written (the whole document, an array
/// element, an object member); with any other encoder, `encode(to:)` runs. A conformance must write what its
/// synthesized `encode(to:)` writes with nil members as null: the wire structs' conformances are generated from the
/// same schema members as the structs (`WireTypeGenerator`), so the names, the order and the completeness are
/// those of one declaration.
@usableFromInline package protocol JSONFastEncodable: Encodable {
    /// Writes the members, in order, into an object the encoder has opened.
    func writeMembers(to object: inout JSONObjectWriter) throws
}

/// Writes the members of one JSON object straight to the encoder's output.
///
/// The generic writes are inlinable so that they are specialized where they are called (for the result type
/// at hand): unspecialized, a list's `enumerated()` looked up its tuple type's metadata for every element.
@usableFromInline package struct JSONObjectWriter {
    @usableFromInline let writer: JSONByteWriter
    @usableFromInline var count = 0

    @usableFromInline
    init(writer: JSONByteWriter) {
        self.writer = writer
    }

    /// The separator and the key of the next member. A key is written as it is: it must be ASCII needing no escape
    /// (the wire structs' keys are their schemas' member names, which `WireTypeGenerator` checks). Scanning each key
    /// for characters to escape, as a `String`, was a third of writing a result.
    @inlinable @inline(__always)
    mutating func key(_ key: StaticString) {
        assert(Self.isPlain(key), "a member name that needs escaping: \(key)")
        let separated = count > 0
        count += 1
        // `,"name":` in one reservation, the name copied byte by byte: member names are a few bytes, for which a
        // call to `memmove` (and four capacity checks) cost more than the copy.
        let name = key.utf8Start
        let length = key.utf8CodeUnitCount
        writer.bytes.append(maxCount: length + 4) { out in
            var position = out
            if separated {
                position.pointee = UInt8(ascii: ",")
                position += 1
            }
            position.pointee = UInt8(ascii: "\"")
            for index in 0..<length { position[1 + index] = name[index] }
            position[length + 1] = UInt8(ascii: "\"")
            position[length + 2] = UInt8(ascii: ":")
            return position + length + 3 - out
        }
    }

    /// Whether `key` can be written between quotes as it is: printable ASCII, no quote or backslash.
    @usableFromInline
    static func isPlain(_ key: StaticString) -> Bool {
        guard key.hasPointerRepresentation else { return false }
        return UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount).allSatisfy {
            $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
        }
    }

    @inlinable @inline(__always)
    package mutating func int(_ key: StaticString, _ value: Int) {
        self.key(key)
        writer.writeInteger(value)
    }

    /// `null` for `nil`.
    @inlinable @inline(__always)
    package mutating func int(_ key: StaticString, _ value: Int?) {
        guard let value else { return null(key) }
        int(key, value)
    }

    @inlinable @inline(__always)
    package mutating func bool(_ key: StaticString, _ value: Bool) {
        self.key(key)
        writer.writeBool(value)
    }

    /// `null` for `nil`.
    @inlinable @inline(__always)
    package mutating func bool(_ key: StaticString, _ value: Bool?) {
        guard let value else { return null(key) }
        bool(key, value)
    }

    @usableFromInline package mutating func string(_ key: StaticString, _ value: String) {
        self.key(key)
        writer.writeString(value)
    }

    /// `null` for `nil`.
    @usableFromInline package mutating func string(_ key: StaticString, _ value: String?) {
        guard let value else { return null(key) }
        string(key, value)
    }

    /// - Throws: `EncodingError.invalidValue` for NaN or an infinity, as the containers do.
    @inlinable @inline(__always)
    package mutating func double(_ key: StaticString, _ value: Double) throws {
        guard value.isFinite else { throw nonFinite(value, key) }
        self.key(key)
        writer.writeDouble(value)
    }

    /// The error for a NaN or an infinity, at the member's coding path.
    @usableFromInline
    func nonFinite(_ value: Double, _ key: StaticString) -> EncodingError {
        EncodingError.invalidValue(
            value,
            EncodingError.Context(
                codingPath: writer.codingPath(depth: writer.frames.count) + [JSONCodingKey(stringValue: "\(key)")],
                debugDescription: "Unable to encode Double.\(value) directly in JSON."))
    }

    /// `null` for `nil`.
    @inlinable @inline(__always)
    package mutating func double(_ key: StaticString, _ value: Double?) throws {
        guard let value else { return null(key) }
        try double(key, value)
    }

    /// An array of integers.
    @usableFromInline package mutating func ints(_ key: StaticString, _ values: [Int]) {
        self.key(key)
        writer.writeArray(values) { writer.writeInteger($0) }
    }

    /// An array of numbers.
    /// - Throws: `EncodingError.invalidValue` for NaN or an infinity, as the containers do.
    @usableFromInline package mutating func doubles(_ key: StaticString, _ values: [Double]) throws {
        if let bad = values.first(where: { !$0.isFinite }) { try double(key, bad) }
        self.key(key)
        writer.writeArray(values) { writer.writeDouble($0) }
    }

    /// A value written as the text it spells (a date, a month, an instant).
    @inlinable
    package mutating func text(_ key: StaticString, _ value: some JSONPlainText) {
        self.key(key)
        writer.writePlainText(value)
    }

    /// An array of values written as the texts they spell.
    @inlinable
    package mutating func texts<Text: JSONPlainText>(_ key: StaticString, _ values: [Text]) {
        self.key(key)
        writer.writeTexts(values)
    }

    /// An array of arrays of values written as texts, `null` for `nil` (the weeks of a calendar grid).
    @inlinable
    package mutating func textRows<Text: JSONPlainText>(_ key: StaticString, _ rows: [[Text?]]) {
        self.key(key)
        writer.writeArray(rows) { writer.writeTexts($0) }
    }

    /// An array of names of a closed set (weekdays, activity types): each its raw value.
    @inlinable
    package mutating func names<Name: RawRepresentable<String>>(_ key: StaticString, _ values: [Name]) {
        self.key(key)
        writer.writeArray(values) { writer.writeString($0.rawValue) }
    }

    /// An array of strings, each escaped as `writeString` escapes it.
    @inlinable
    package mutating func strings(_ key: StaticString, _ values: [String]) {
        self.key(key)
        writer.writeArray(values) { writer.writeString($0) }
    }

    /// An object whose members are named at run time and write themselves: a map (`workout.calendar`'s days by
    /// date). In the dictionary's own order, as its `Encodable` conformance writes it (the same bytes); each name
    /// escaped. Through that conformance a map's every member went through a keyed container, a box and dynamic
    /// casts: the calendar's result was written at a ninth of the speed of the others.
    @inlinable
    package mutating func objectMap<Value: JSONFastEncodable>(_ key: StaticString, _ values: [String: Value]) throws {
        self.key(key)
        writer.bytes.append(UInt8(ascii: "{"))
        var first = true
        for (name, value) in values {
            if !first { writer.bytes.append(UInt8(ascii: ",")) }
            first = false
            writer.writeString(name)
            writer.bytes.append(UInt8(ascii: ":"))
            try writer.writeObject(value)
        }
        writer.bytes.append(UInt8(ascii: "}"))
    }

    /// A member that writes itself.
    @inlinable
    package mutating func object(_ key: StaticString, _ value: some JSONFastEncodable) throws {
        self.key(key)
        try writer.writeObject(value)
    }

    /// `null` for `nil`.
    @inlinable
    package mutating func object(_ key: StaticString, _ value: (some JSONFastEncodable)?) throws {
        guard let value else { return null(key) }
        try object(key, value)
    }

    /// An array of members that write themselves.
    @inlinable
    package mutating func objects<Element: JSONFastEncodable>(_ key: StaticString, _ values: [Element]) throws {
        self.key(key)
        // A loop of its own, not `writeArray`: results' longest lists are of objects, and a throwing closure per
        // element is a call the optimizer does not remove.
        writer.bytes.append(UInt8(ascii: "["))
        for index in values.indices {
            if index > 0 { writer.bytes.append(UInt8(ascii: ",")) }
            try writer.writeObject(values[index])
        }
        writer.bytes.append(UInt8(ascii: "]"))
    }

    /// A member written through its `Encodable` conformance: a value without a fast path (an error) inside an
    /// object that writes itself (a response).
    @usableFromInline package mutating func encodable(_ key: StaticString, _ value: some Encodable) throws {
        self.key(key)
        let depth = writer.frames.count
        let start = writer.bytes.count
        try JSONValueEncoder(writer: writer, depth: depth, slotStart: start).write(value)
        writer.closeFrames(deeperThan: depth)
        // A value that encoded nothing is `{}`, as everywhere else in this encoder.
        if writer.bytes.count == start {
            writer.bytes.append(UInt8(ascii: "{"))
            writer.bytes.append(UInt8(ascii: "}"))
        }
    }

    /// A nil member: `null` where the encoder writes nil members (results), left out where it does not, as the
    /// keyed containers do (`encodeIfPresent`).
    @inlinable @inline(__always)
    package mutating func null(_ key: StaticString) {
        guard writer.writesNilMembers else { return }
        self.key(key)
        writer.writeNull()
    }
}

extension JSONValueEncoder {
    /// Writes `value` into this slot: through its fast path when it has one and the encoder takes them, else
    /// through its `encode(to:)`. Every place a value is written (the document, an element, a member) comes here.
    func write<Value: Encodable>(_ value: Value) throws {
        if writer.usesFastPaths, let fast = value as? any JSONFastEncodable {
            writer.closeFrames(deeperThan: depth)
            guard writer.bytes.count == slotStart else { throw alreadyEncoded("a value") }
            try writer.writeObject(fast)
        } else {
            try value.encode(to: self)
        }
    }
}

extension JSONByteWriter {
    /// `value` as a JSON string of the text it spells.
    @inlinable
    func writePlainText(_ value: some JSONPlainText) {
        bytes.append(UInt8(ascii: "\""))
        bytes.append(maxCount: type(of: value).maxPlainTextLength) { value.writePlainText(to: $0) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// An array of texts, `null` for `nil`.
    @inlinable
    func writeTexts<Text: JSONPlainText>(_ values: [Text?]) {
        writeArray(values) { value in
            if let value { writePlainText(value) } else { writeNull() }
        }
    }

    /// An array of texts.
    @inlinable
    func writeTexts<Text: JSONPlainText>(_ values: [Text]) {
        writeArray(values) { writePlainText($0) }
    }

    /// `[`, each of `values` written by `write`, `,` between them, `]`: every list a result writes itself.
    @inlinable @inline(__always)
    func writeArray<Element>(_ values: [Element], _ write: (Element) throws -> Void) rethrows {
        bytes.append(UInt8(ascii: "["))
        for index in values.indices {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            try write(values[index])
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// `value` as an object, through its fast path.
    @inlinable
    func writeObject(_ value: some JSONFastEncodable) throws {
        bytes.append(UInt8(ascii: "{"))
        var object = JSONObjectWriter(writer: self)
        try value.writeMembers(to: &object)
        bytes.append(UInt8(ascii: "}"))
    }
}
