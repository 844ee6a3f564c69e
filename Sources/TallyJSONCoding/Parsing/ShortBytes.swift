/// Equality of two short byte runs (object keys), compared inline with a few word loads: keys are a few bytes
/// long, and a call into the C library's `memcmp`, or a loop byte by byte, cost more than the comparison itself.
@usableFromInline
enum ShortBytes {
    /// Whether the `count` bytes at `lhs` and at `rhs` are equal. Runs shorter than a word are compared as two
    /// overlapping halves (the first and the last 2, 4 or 8 bytes), so that no load reaches past either run.
    @inlinable @inline(__always)
    static func equal(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>, count: Int) -> Bool {
        switch count {
        case 0:
            return true
        case 1:
            return lhs[0] == rhs[0]
        case 2..<4:
            return ends(lhs, rhs, count: count, as: UInt16.self)
        case 4..<8:
            return ends(lhs, rhs, count: count, as: UInt32.self)
        case 8...16:
            return ends(lhs, rhs, count: count, as: UInt64.self)
        default:
            var offset = 0
            while count - offset > 8 {
                guard load(lhs + offset, as: UInt64.self) == load(rhs + offset, as: UInt64.self) else { return false }
                offset += 8
            }
            return load(lhs + count - 8, as: UInt64.self) == load(rhs + count - 8, as: UInt64.self)
        }
    }

    /// Compares the first and the last `Word` of both runs (which together cover `count` ≤ 2 words).
    @inlinable @inline(__always)
    static func ends<Word: FixedWidthInteger>(
        _ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>, count: Int, as word: Word.Type
    ) -> Bool {
        let last = count - MemoryLayout<Word>.size
        return load(lhs, as: word) == load(rhs, as: word) && load(lhs + last, as: word) == load(rhs + last, as: word)
    }

    @inlinable @inline(__always)
    static func load<Word: FixedWidthInteger>(_ pointer: UnsafePointer<UInt8>, as word: Word.Type) -> Word {
        UnsafeRawPointer(pointer).loadUnaligned(as: word)
    }
}
