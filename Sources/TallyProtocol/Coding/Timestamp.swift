import Foundation
import TallyCalendar
import TallyJSONCoding

/// An instant as RFC 3339 text, keeping the offset it was written with so that it can be echoed unchanged. The
/// instant is exact to the nanosecond (`Instant`): its date, hour and minute in any zone are the text's own.
public struct Timestamp: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The moment the text names, to the nanosecond.
    public var instant: Instant
    /// Seconds east of UTC of the text form.
    public var offset: Int

    /// `instant`, to be written with `offset` seconds east of UTC: in UTC (`Z`) by default.
    public init(_ instant: Instant, offset: Int = 0) {
        self.instant = instant
        self.offset = offset
    }

    /// The instant a `Date` names, to the nanosecond its `Double` holds.
    public init(_ date: Date, offset: Int = 0) {
        self.init(Instant(date), offset: offset)
    }

    /// Parses RFC 3339 text.
    public init(parsing text: String) throws(InstantParseError) {
        (instant, offset) = try RFC3339.parse(text)
    }

    /// Parses RFC 3339 text given as UTF-8 bytes (the JSON fast path's form), exactly as `init(parsing:)`.
    @usableFromInline package init(utf8 bytes: UnsafeBufferPointer<UInt8>) throws(InstantParseError) {
        (instant, offset) = try RFC3339.parse(utf8: bytes)
    }

    public var description: String { RFC3339.format(instant, offset: offset) }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            (instant, offset) = try RFC3339.parse(text)
        } catch {
            throw JSONDecodingError(refusing: "'\(text)': \(error)", in: container)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
