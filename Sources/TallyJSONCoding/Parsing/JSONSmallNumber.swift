/// Small plain numbers packed into a node's spare 16 bits while parsing, so that the decoder reads them without
/// going back to the text: a non-negative number with at most three fraction digits and no exponent whose digits,
/// without the point, make an integer below 16,383 (`8`, `135`, `62.5`, `0.125`). Nearly every number of a
/// workout (reps, weights) and many of a step history are like that.
///
/// Packing: `1 + (fractionDigits << 14 | digits)`, so that 0 means "not packed" (the top value, 65,535, is not
/// reachable). The values are exactly those of the text: an integer is its digits, and a fraction is the digits
/// divided once by a power of ten; both operands are exact doubles, so the quotient is correctly rounded, the same
/// double as the general path (see `JSONShortDecimal`).
@usableFromInline
enum JSONSmallNumber {
    /// The packed value of a non-negative number without exponent, short enough (at most six bytes) that
    /// `digits` is exact: its digits without the point, `fractionDigits` of them after it. 0 when it does not fit.
    @inline(__always)
    static func packed(digits: Int, fractionDigits: Int) -> UInt16 {
        guard digits < 16_383, fractionDigits <= 3 else { return 0 }
        return UInt16(truncatingIfNeeded: 1 &+ (fractionDigits << 14 | digits))
    }

    /// The integer of a packed number without a fraction, or `nil` (not packed, or a fraction: the general path
    /// decides whether a text like `5.0` is an integer).
    @inlinable @inline(__always)
    static func integer(_ small: UInt16) -> Int? {
        small != 0 && small <= 0x4000 ? Int(small &- 1) : nil
    }

    /// The double of a packed number, or `nil` if it is not packed.
    @inlinable @inline(__always)
    static func double(_ small: UInt16) -> Double? {
        guard small != 0 else { return nil }
        let value = Int(small &- 1)
        let digits = Double(value & 0x3FFF)
        switch value >> 14 {
        case 0: return digits
        case 1: return digits / 10
        case 2: return digits / 100
        default: return digits / 1000
        }
    }
}
