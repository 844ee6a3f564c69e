import TallyCalendar
import TallyJSONCoding

// The calendar's values as results write them: the text of their `description` (what `encode(to:)` writes),
// appended without building a `String` where the digits can be written directly.

extension LocalDate: JSONPlainText {
    /// `yyyy-MM-dd`.
    public func appendPlainText(to bytes: inout [UInt8]) {
        appendDigits(Int(year), count: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(Int(month), count: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(Int(day), count: 2, to: &bytes)
    }
}

extension YearMonth: JSONPlainText {
    /// `yyyy-MM`.
    public func appendPlainText(to bytes: inout [UInt8]) {
        appendDigits(year, count: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(month, count: 2, to: &bytes)
    }
}

extension Timestamp: JSONPlainText {
    /// RFC 3339 with its offset: digits, `-`, `:`, `T`, `.`, `+`, `Z`.
    public func appendPlainText(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: description.utf8)
    }
}

/// `value` (0 ≤ value < 10^count) in exactly `count` decimal digits, zeros in front.
private func appendDigits(_ value: Int, count: Int, to bytes: inout [UInt8]) {
    var divisor = 1
    for _ in 1..<count { divisor &*= 10 }
    var remaining = value
    while divisor > 0 {
        bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining / divisor))
        remaining %= divisor
        divisor /= 10
    }
}
