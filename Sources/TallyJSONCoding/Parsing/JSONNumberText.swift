/// The value of a validated JSON number text, read once as decimal mantissa and exponent so that each target type
/// gets an exact answer: integers only when the text denotes an integer that fits, doubles correctly rounded.
///
/// The mantissa keeps no trailing zeros (they move into the exponent), so `1.50e1` is 15 × 10⁰ and `1.5` is
/// 15 × 10⁻¹: the number is an integer exactly when the exponent is not negative.
struct JSONNumberText {
    var isNegative = false
    /// Significant digits without trailing zeros; meaningless when `mantissaOverflowed`.
    var mantissa: UInt64 = 0
    var mantissaOverflowed = false
    /// Decimal exponent applying to `mantissa`, clamped far outside any representable range.
    var exponent = 0

    init(_ text: UnsafeBufferPointer<UInt8>) {
        var index = 0
        if text[0] == UInt8(ascii: "-") {
            isNegative = true
            index = 1
        }
        var pendingZeros = 0
        var fractionDigits = 0
        var inFraction = false
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                break
            } else {
                if inFraction { fractionDigits += 1 }
                let digit = UInt64(byte - UInt8(ascii: "0"))
                if digit == 0 {
                    pendingZeros += 1
                } else {
                    appendDigit(digit, afterZeros: pendingZeros)
                    pendingZeros = 0
                }
            }
            index += 1
        }
        var written = 0
        if index < text.count {
            index += 1
            var negativeExponent = false
            if text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                negativeExponent = text[index] == UInt8(ascii: "-")
                index += 1
            }
            while index < text.count {
                written = min(written * 10 + Int(text[index] - UInt8(ascii: "0")), 1_000_000)
                index += 1
            }
            if negativeExponent { written = -written }
        }
        exponent = mantissa == 0 && !mantissaOverflowed ? 0 : written - fractionDigits + pendingZeros
    }

    private mutating func appendDigit(_ digit: UInt64, afterZeros zeros: Int) {
        // Past UInt64 the number is out of every integer type's range or not an integer, and doubles take the
        // strtod path: the digits no longer matter.
        guard !mantissaOverflowed else { return }
        var value = mantissa
        for _ in 0..<(zeros + 1) {
            let (product, overflow) = value.multipliedReportingOverflow(by: 10)
            if overflow {
                mantissaOverflowed = true
                return
            }
            value = product
        }
        let (sum, overflow) = value.addingReportingOverflow(digit)
        if overflow {
            mantissaOverflowed = true
            return
        }
        mantissa = sum
    }

    /// The number as `T` when it denotes an integer in `T`'s range, else `nil` (`1.5`, `1e-400`, `2^64`).
    func integer<T: FixedWidthInteger>(as type: T.Type) -> T? {
        if mantissa == 0 && !mantissaOverflowed { return 0 }
        guard !mantissaOverflowed, exponent >= 0, exponent <= 19 else { return nil }
        var magnitude = mantissa
        for _ in 0..<exponent {
            let (product, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            magnitude = product
        }
        if isNegative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            let signed = magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
            return T(exactly: signed)
        }
        return T(exactly: magnitude)
    }

    /// Exact powers of ten that a double holds: the correctly rounded fast path (Clinger) multiplies or divides
    /// by one of them once.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22,
    ]

    /// The correctly rounded double when the fast path applies (mantissa below 2⁵³, |exponent| ≤ 22), else `nil`
    /// and the caller falls back to the C library's correctly rounded `strtod`.
    var fastDouble: Double? {
        guard !mantissaOverflowed, mantissa < 1 << 53, (-22...22).contains(exponent) else { return nil }
        let magnitude =
            exponent >= 0
            ? Double(mantissa) * Self.exactPowersOfTen[exponent] : Double(mantissa) / Self.exactPowersOfTen[-exponent]
        return isNegative ? -magnitude : magnitude
    }

    /// Whether the text denotes zero (so that a zero double is not an underflow).
    var isZero: Bool { mantissa == 0 && !mantissaOverflowed }
}
