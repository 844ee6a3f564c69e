import TallyCalendar
import TallyJSONCoding

// The calendar's values as results write them: the text of their `description` (what `encode(to:)` writes),
// appended as digits without building a `String`.

extension LocalDate: JSONPlainText {
    /// `yyyy-MM-dd`.
    public func appendPlainText(to bytes: inout [UInt8]) { appendText(to: &bytes) }
}

extension YearMonth: JSONPlainText {
    /// `yyyy-MM`.
    public func appendPlainText(to bytes: inout [UInt8]) { appendText(to: &bytes) }
}

extension Timestamp: JSONPlainText {
    /// RFC 3339 with its offset: digits, `-`, `:`, `T`, `.`, `+`, `Z`.
    public func appendPlainText(to bytes: inout [UInt8]) { RFC3339.append(instant, offset: offset, to: &bytes) }
}
