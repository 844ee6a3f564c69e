/// The double of a short plain decimal, `-?digits(.digits)?` with at most 15 digits and no exponent (weights,
/// distances, calories: nearly every double a request carries), in one pass over the bytes.
///
/// Why it is exact: 15 digits make an integer below 2⁵³, and 10^fraction (≤ 10¹⁵) is a double too, so the one
/// division rounds the exact quotient correctly: the same double as the general path (`JSONNumberText`), which
/// only reaches it through a longer route. Anything else answers `nil` and takes that path.
enum JSONShortDecimal {
    static let maximumDigits = 15

    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ]

    /// `text` (a validated JSON number) as a double, or `nil` if it has an exponent or more than 15 digits.
    static func value(of text: UnsafeBufferPointer<UInt8>) -> Double? {
        let isNegative = text[0] == UInt8(ascii: "-")
        var index = isNegative ? 1 : 0
        guard text.count - index <= maximumDigits + 1 else { return nil }
        var mantissa: UInt64 = 0
        var fractionStart = -1
        while index < text.count {
            let byte = text[index]
            let digit = byte &- UInt8(ascii: "0")
            if digit < 10 {
                mantissa = mantissa &* 10 &+ UInt64(digit)
            } else if byte == UInt8(ascii: ".") {
                fractionStart = index + 1
            } else {
                return nil  // e or E
            }
            index += 1
        }
        let fractionDigits = fractionStart < 0 ? 0 : text.count - fractionStart
        let digits = text.count - (isNegative ? 1 : 0) - (fractionStart < 0 ? 0 : 1)
        guard digits <= maximumDigits else { return nil }
        let magnitude = Double(mantissa) / powersOfTen[fractionDigits]
        return isNegative ? -magnitude : magnitude
    }
}
