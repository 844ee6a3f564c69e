/// A position in a JSON document's bytes, for decoders that read typed values in one pass straight off the bytes:
/// no tape, no second walk (`JSONDirectDecodable`).
///
/// Why: building the tape (16 bytes a value, written once and read again) and then reading it was two thirds of
/// decoding a year of records; the values a request carries are few kinds (small integers, short decimals,
/// dates, instants, short names), each of which can be parsed where it lies.
///
/// Every read accepts only what it is sure of, exactly as RFC 8259 and Tally's decoder accept it, and answers
/// `nil` otherwise: the caller then gives up on the whole document and the standard decoder reads it from the
/// start, producing the same value or the error it always produced. So a read never needs to word what is wrong,
/// and the strictness of the standard decoder is never repeated here, only never exceeded: what a cursor accepts
/// must be valid JSON text (it validates every byte it passes: strings as UTF-8 without control characters, numbers
/// by the grammar, structure), and must decode to the same value.
///
/// The cursor holds raw pointers into bytes it does not own: it lives only inside a call that keeps them alive
/// (`JSONCursor.read(_:limits:_:)`).
@usableFromInline package struct JSONCursor {
    /// The next byte to read.
    @usableFromInline var position: UnsafePointer<UInt8>
    /// Just past the last byte.
    @usableFromInline let end: UnsafePointer<UInt8>
    /// The most elements a list may hold; a longer one is refused by the standard decoder, so this one gives up.
    @usableFromInline let maxListElements: Int

    @inlinable
    init(start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, maxListElements: Int) {
        self.position = start
        self.end = end
        self.maxListElements = maxListElements
    }

    /// Runs `body` with a cursor at the start of `bytes`; its answer stands only if `body` read the whole document
    /// (trailing whitespace allowed), so a document with anything after its value is the standard decoder's.
    @inlinable
    package static func read<Value>(
        _ bytes: [UInt8], maxListElements: Int = .max, _ body: (inout JSONCursor) -> Value?
    ) -> Value? {
        bytes.withUnsafeBufferPointer { buffer -> Value? in
            guard let start = buffer.baseAddress else { return nil }
            var cursor = JSONCursor(start: start, end: start + buffer.count, maxListElements: maxListElements)
            cursor.skipWhitespace()
            guard let value = body(&cursor) else { return nil }
            cursor.skipWhitespace()
            return cursor.position == cursor.end ? value : nil
        }
    }

    /// Whether every byte has been read.
    @inlinable
    package var isAtEnd: Bool { position == end }

    // MARK: Structure

    /// Skips JSON whitespace (space, tab, line feed, carriage return).
    @inlinable @inline(__always)
    package mutating func skipWhitespace() {
        while position < end {
            let byte = position.pointee
            guard byte <= 0x20, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            position += 1
        }
    }

    /// Reads `byte` after optional whitespace; `false` (and nothing read) when something else comes.
    @inlinable @inline(__always)
    package mutating func consume(_ byte: UInt8) -> Bool {
        if position < end, position.pointee == byte {
            position += 1
            return true
        }
        skipWhitespace()
        guard position < end, position.pointee == byte else { return false }
        position += 1
        return true
    }

    /// Starts an object: `{`. Then `nextMember(first:)` until it answers `false`.
    @inlinable @inline(__always)
    package mutating func beginObject() -> Bool { consume(UInt8(ascii: "{")) }

    /// Moves to the next member of an object whose `{` was read: `true` before a key (which `key()` then reads),
    /// `false` at the object's `}` (read), `nil` when neither (the document is not for this cursor).
    /// - Parameter first: whether no member was read yet (then `}` may come at once, and no comma is due).
    @inlinable @inline(__always)
    package mutating func nextMember(first: Bool) -> Bool? {
        skipWhitespace()
        guard position < end else { return nil }
        let byte = position.pointee
        if byte == UInt8(ascii: "}") {
            position += 1
            return false
        }
        if first { return byte == UInt8(ascii: "\"") ? true : nil }
        guard byte == UInt8(ascii: ",") else { return nil }
        position += 1
        skipWhitespace()
        return position < end && position.pointee == UInt8(ascii: "\"") ? true : nil
    }

    /// Reads a member's key and the `:` after it: its bytes, valid while the document is, or `nil` when the key
    /// has an escape or a byte a plain key cannot have (such a document is the standard decoder's).
    @inlinable @inline(__always)
    package mutating func key() -> JSONKeyBytes? {
        guard position < end, position.pointee == UInt8(ascii: "\"") else { return nil }
        let start = position + 1
        var cursor = start
        // Keys are short printable ASCII: anything else gives up.
        while cursor < end {
            let byte = cursor.pointee
            if byte == UInt8(ascii: "\"") { break }
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
            cursor += 1
        }
        guard cursor < end else { return nil }
        let key = JSONKeyBytes(start: start, count: cursor - start)
        position = cursor + 1
        guard consume(UInt8(ascii: ":")) else { return nil }
        skipWhitespace()
        return key
    }

    /// Reads the key `name` and the `:` after it when the next member has that key, compared in place with no scan
    /// for its end: the generated decoders try the member the schema lists next first, which is where Tally's
    /// clients write it. `false` (nothing read) for any other key, and for a key with escapes.
    @inlinable @inline(__always)
    package mutating func skipKey(_ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        // The quotes around the name, and the colon right after the closing one (the common, compact case).
        guard end - position >= count + 3, position.pointee == UInt8(ascii: "\""),
            position[count + 1] == UInt8(ascii: "\""), JSONKeyBytes.equal(position + 1, name.utf8Start, count)
        else { return false }
        let after = position + count + 2
        if after.pointee == UInt8(ascii: ":") {
            position = after + 1
        } else {
            let start = position
            position = after
            guard consume(UInt8(ascii: ":")) else {
                // Nothing read: the caller reads the key its own way (and finds the colon missing).
                position = start
                return false
            }
        }
        skipWhitespace()
        return true
    }

    /// Reads `text` when the bytes at the cursor are exactly it, with no whitespace skipped: `{"reps":`,
    /// `,"weight":`, `}`. The generated decoders' straight pass reads an object written compactly, members in the
    /// schema's order (as Tally's clients write them), as a run of such literals and values; `false` (nothing read)
    /// on the first difference, and the decoder reads the object member by member instead.
    @inlinable @inline(__always)
    package mutating func literal(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard end - position >= count, JSONKeyBytes.equal(position, text.utf8Start, count) else { return false }
        position += count
        return true
    }

    /// Reads a date `"yyyy-MM-dd"` in place: the fixed width is checked and the ten bytes parsed by `parse` (which
    /// accepts only digits and dashes, so the string is plain JSON text); `nil` for anything else.
    @inlinable @inline(__always)
    package mutating func fixedText<Value>(width: Int, _ parse: (UnsafeBufferPointer<UInt8>) -> Value?) -> Value? {
        guard end - position >= width + 2, position.pointee == UInt8(ascii: "\""),
            position[width + 1] == UInt8(ascii: "\""),
            let value = parse(UnsafeBufferPointer(start: position + 1, count: width))
        else { return nil }
        position += width + 2
        return value
    }

    /// Passes over the value at the cursor by its structure alone (strings and their escapes, brackets), checking
    /// nothing else, and answers where it lies, for reading it later with `reading(_:_:)` once the reader knows how
    /// (the params of a request whose `method` comes after them). `nil` when the document ends first.
    @usableFromInline package mutating func skipValue() -> JSONSpan? {
        let start = position
        var depth = 0
        while position < end {
            switch position.pointee {
            case UInt8(ascii: "\""):
                // Plain runs of a string eight bytes at a time; what stops the run is looked at alone.
                position += 1
                while position < end {
                    position += PlainASCIIScan.endOfRun(in: position, from: 0, count: end - position)
                    guard position < end, position.pointee != UInt8(ascii: "\"") else { break }
                    position += position.pointee == UInt8(ascii: "\\") ? 2 : 1
                }
                guard position < end else { return nil }
                position += 1
                if depth == 0 { return JSONSpan(start: start, end: position) }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                position += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                // At depth 0 the enclosing object or array closes: a scalar value ended just before.
                guard depth > 0 else { return position > start ? JSONSpan(start: start, end: position) : nil }
                depth -= 1
                position += 1
                if depth == 0 { return JSONSpan(start: start, end: position) }
            case UInt8(ascii: ","):
                if depth == 0 { return position > start ? JSONSpan(start: start, end: position) : nil }
                position += 1
            default:
                position += 1
            }
        }
        return nil
    }

    /// Reads the value that `skipValue()` passed over with `body`, which must read all of it (trailing whitespace
    /// aside): the same checks as reading it in place.
    @usableFromInline package func reading<Value>(_ span: JSONSpan, _ body: (inout JSONCursor) -> Value?) -> Value? {
        var cursor = JSONCursor(start: span.start, end: span.end, maxListElements: maxListElements)
        guard let value = body(&cursor) else { return nil }
        cursor.skipWhitespace()
        return cursor.position == span.end ? value : nil
    }

    /// Reads `null`; `false` (nothing read) when the value is something else.
    @inlinable @inline(__always)
    package mutating func null() -> Bool {
        guard end - position >= 4, position[0] == UInt8(ascii: "n"), position[1] == UInt8(ascii: "u"),
            position[2] == UInt8(ascii: "l"), position[3] == UInt8(ascii: "l")
        else { return false }
        position += 4
        return true
    }

    /// Reads `true` or `false`.
    @inlinable
    package mutating func bool() -> Bool? {
        if end - position >= 4, position[0] == UInt8(ascii: "t"), position[1] == UInt8(ascii: "r"),
            position[2] == UInt8(ascii: "u"), position[3] == UInt8(ascii: "e")
        {
            position += 4
            return true
        }
        if end - position >= 5, position[0] == UInt8(ascii: "f"), position[1] == UInt8(ascii: "a"),
            position[2] == UInt8(ascii: "l"), position[3] == UInt8(ascii: "s"), position[4] == UInt8(ascii: "e")
        {
            position += 5
            return false
        }
        return nil
    }

    /// Reads a value that may be `null`: `.some(nil)` for null, `.some(value)` when `read` reads one, `nil` when it
    /// does not.
    @inlinable @inline(__always)
    package mutating func nullable<Value>(_ read: (inout JSONCursor) -> Value?) -> Value?? {
        if null() { return .some(nil) }
        return read(&self).map { .some($0) }
    }
}

/// Where a value lies in the document a cursor reads (`JSONCursor.skipValue()`), valid while the document is.
@usableFromInline package struct JSONSpan {
    let start: UnsafePointer<UInt8>
    let end: UnsafePointer<UInt8>
}

/// The bytes of an object's key, as written (no escapes), compared with the member names a type knows.
@usableFromInline package struct JSONKeyBytes {
    @usableFromInline let start: UnsafePointer<UInt8>
    @usableFromInline let count: Int

    @inlinable
    init(start: UnsafePointer<UInt8>, count: Int) {
        self.start = start
        self.count = count
    }

    /// Whether the key is `name` (an ASCII literal).
    @inlinable @inline(__always)
    package func `is`(_ name: StaticString) -> Bool {
        count == name.utf8CodeUnitCount && Self.equal(start, name.utf8Start, count)
    }

    /// Whether `count` bytes at `left` and at `right` are equal. A member name of 4 to 16 bytes (most are) is two
    /// overlapping loads of a word each, its first and its last: no loop over its bytes; a longer one (a key with
    /// its quotes and separators, `,"completed_at":`) is a word at a time, its last word overlapping.
    @inlinable @inline(__always)
    static func equal(_ left: UnsafePointer<UInt8>, _ right: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        switch count {
        case 17...:
            var offset = 0
            while offset < count - 8 {
                guard load(UInt64.self, left, offset) == load(UInt64.self, right, offset) else { return false }
                offset += 8
            }
            return load(UInt64.self, left, count - 8) == load(UInt64.self, right, count - 8)
        case 8...16:
            return load(UInt64.self, left, 0) == load(UInt64.self, right, 0)
                && load(UInt64.self, left, count - 8) == load(UInt64.self, right, count - 8)
        case 4..<8:
            return load(UInt32.self, left, 0) == load(UInt32.self, right, 0)
                && load(UInt32.self, left, count - 4) == load(UInt32.self, right, count - 4)
        default:
            for offset in 0..<count where left[offset] != right[offset] { return false }
            return true
        }
    }

    @inlinable @inline(__always)
    static func load<Word: FixedWidthInteger>(_ type: Word.Type, _ base: UnsafePointer<UInt8>, _ offset: Int) -> Word {
        UnsafeRawPointer(base + offset).loadUnaligned(as: Word.self)
    }
}
