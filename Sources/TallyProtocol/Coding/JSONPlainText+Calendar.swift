import TallyCalendar
import TallyJSONCoding

// The calendar's values as results write them: the text of their `description` (what `encode(to:)` writes),
// written as digits straight into the output.

extension LocalDate: JSONPlainText {
    @usableFromInline package static var maxPlainTextLength: Int { textLength }

    /// `yyyy-MM-dd`.
    @usableFromInline package func writePlainText(to start: UnsafeMutablePointer<UInt8>) -> Int { writeText(to: start) }
}

extension YearMonth: JSONPlainText {
    @usableFromInline package static var maxPlainTextLength: Int { textLength }

    /// `yyyy-MM`.
    @usableFromInline package func writePlainText(to start: UnsafeMutablePointer<UInt8>) -> Int { writeText(to: start) }
}

extension Timestamp: JSONPlainText {
    @usableFromInline package static var maxPlainTextLength: Int { RFC3339.maxTextLength }

    /// RFC 3339 with its offset: digits, `-`, `:`, `T`, `.`, `+`, `Z`.
    @usableFromInline package func writePlainText(to start: UnsafeMutablePointer<UInt8>) -> Int {
        RFC3339.write(instant, offset: offset, to: start)
    }
}
