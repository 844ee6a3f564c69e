/// A value that is written in JSON as a string of the text it spells, and writes that text itself: a date
/// (`2026-11-28`), a month, an instant.
///
/// Why: through `description`, a result's every date built a `String` and then had it scanned for characters to
/// escape; a heatmap or a month grid writes dozens. The text must be printable ASCII with no quote or backslash
/// (nothing to escape), and the same text `encode(to:)` writes: the encoding parity tests compare the two.
@usableFromInline package protocol JSONPlainText {
    /// The most bytes `writePlainText(to:)` writes.
    static var maxPlainTextLength: Int { get }

    /// Writes the text, without quotes, at `start` (room for `maxPlainTextLength` bytes), and answers its length.
    func writePlainText(to start: UnsafeMutablePointer<UInt8>) -> Int
}
