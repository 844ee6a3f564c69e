import Foundation

/// Why a text is not an RFC 3339 instant.
public enum InstantParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not of the form `yyyy-MM-ddTHH:mm:ss[.fraction](Z|±HH:mm)`.
    case notRFC3339
    /// A date and time with no `Z` or `±HH:mm`: it names no instant, because the zone is unknown.
    case missingOffset
    /// The date part names no date.
    case invalidDate(LocalDateParseError)
    /// Hour, minute, second or offset out of range.
    case timeOutOfRange
    /// Before 0001-01-01T00:00:00Z, or not before 10000-01-01T00:00:00Z: an instant Tally could not write back in
    /// RFC 3339 (whose years have four digits) without changing it.
    case outsideSupportedInstants

    public var description: String {
        switch self {
        case .notRFC3339: "expected an RFC 3339 instant such as 2026-03-08T07:30:00Z"
        case .missingOffset: "the instant has no UTC offset (add Z or ±HH:mm): without it, it names no moment"
        case .invalidDate(let error): "the date part is wrong: \(error)"
        case .timeOutOfRange: "hour, minute, second or offset is out of range"
        case .outsideSupportedInstants:
            "the instant lies outside 0001-01-01T00:00:00Z...9999-12-31T23:59:59.999Z, the instants Tally supports"
        }
    }
}

/// RFC 3339 instants (the `date-time` of JSON Schema), read and written without DateFormatter:
/// parsing is on every request's hot path and must report precisely what is wrong.
public enum RFC3339 {
    /// The instants Tally reads and writes: from 0001-01-01T00:00:00Z up to 10000-01-01T00:00:00Z (excluded), the
    /// span in which every instant can be written in UTC with a four-digit year.
    public static let supportedInstants: Range<Instant> =
        Instant(secondsSince1970: earliestMidnight)..<Instant(secondsSince1970: afterLatestMidnight)

    /// 0001-01-01T00:00:00 read as UTC, in seconds since 1970: the first second of the supported dates on any clock.
    package static let earliestMidnight = Int64(LocalDate.earliest.dayNumber) * 86_400
    /// 10000-01-01T00:00:00 read as UTC, in seconds since 1970: the first second after the supported dates on any
    /// clock.
    package static let afterLatestMidnight = (Int64(LocalDate.latest.dayNumber) + 1) * 86_400

    /// Parses an RFC 3339 `date-time`: `T` (or `t`, or a space) between date and time, optional fraction
    /// of any length, `Z`/`z` or a numeric offset. The instant is exact: its seconds from the text's fields, and its
    /// fraction's first nine digits (the rest are truncated, never rounded, so no digit moves the second).
    /// A leap second (`:60`) is read as the first second after it: `23:59:60.5Z` is `00:00:00.5Z` of the next day.
    /// - Returns: the instant and the offset it was written with, in seconds east of UTC.
    public static func parse(_ text: some StringProtocol) throws(InstantParseError) -> (instant: Instant, offset: Int) {
        var text = String(text)
        // `withUTF8` rethrows untyped errors: the outcome crosses it as a `Result`.
        return try text.withUTF8 { bytes in Result { () throws(InstantParseError) in try parse(utf8: bytes) } }.get()
    }

    /// `parse(_:)` on UTF-8 bytes, for callers that have them without a `String` (the JSON decoder's fast path
    /// reads every workout's `completed_at` straight from the request); no copy, no allocation.
    public static func parse(
        utf8 bytes: UnsafeBufferPointer<UInt8>
    ) throws(InstantParseError) -> (instant: Instant, offset: Int) {
        guard bytes.count >= 19 else { throw .notRFC3339 }
        let date: LocalDate
        do {
            date = try LocalDate(utf8: UnsafeBufferPointer(rebasing: bytes[0..<10]))
        } catch {
            throw .invalidDate(error)
        }
        let separator = bytes[10]
        guard separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t") || separator == UInt8(ascii: " "),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let hour = twoDigits(bytes, 11), let minute = twoDigits(bytes, 14), let second = twoDigits(bytes, 17)
        else { throw .notRFC3339 }
        guard hour <= 23, minute <= 59, second <= 60 else { throw .timeOutOfRange }

        var index = 19
        var nanoseconds: Int64 = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale: Int64 = 100_000_000
            let start = index
            while index < bytes.count, let digit = digit(bytes[index]) {
                nanoseconds += Int64(digit) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { throw .notRFC3339 }
        }
        guard index < bytes.count else { throw .missingOffset }
        let offset: Int
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            offset = 0
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard bytes.count == index + 6, bytes[index + 3] == UInt8(ascii: ":"),
                let hours = twoDigits(bytes, index + 1), let minutes = twoDigits(bytes, index + 4)
            else { throw .notRFC3339 }
            guard hours <= 23, minutes <= 59 else { throw .timeOutOfRange }
            offset = (bytes[index] == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
            index += 6
        default:
            throw .notRFC3339
        }
        guard index == bytes.count else { throw .notRFC3339 }
        let localSeconds = Int64(date.dayNumber) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        let instant = Instant(secondsSince1970: localSeconds - Int64(offset), nanoseconds: nanoseconds)
        guard supportedInstants.contains(instant) else { throw .outsideSupportedInstants }
        return (instant, offset)
    }

    /// Formats `instant` as local time at `offset` seconds east of UTC: `2026-03-08T01:00:00-05:00`,
    /// with milliseconds (truncated) only when the instant has a millisecond's fraction of a second or more.
    ///
    /// The text always names `instant` itself. An RFC 3339 offset has hours and minutes only, so where `offset`
    /// has seconds (a zone's local mean time before it adopted standard time: Asia/Tehran's +03:25:44 until 1946,
    /// Europe/Dublin's −00:25:21 until 1916) the instant is written in UTC (`Z`) instead: writing `+03:25` would
    /// name a moment 44 seconds away. Likewise where the local time would fall outside the years 0001...9999.
    /// - Important: `instant` must lie in `supportedInstants` (Tally reads no other): outside it no text names it,
    ///   and the date is clamped.
    public static func format(_ instant: Instant, offset: Int) -> String {
        String(unsafeUninitializedCapacity: maxTextLength) { write(instant, offset: offset, to: $0.baseAddress!) }
    }

    /// The longest text `format` writes: `yyyy-MM-ddTHH:mm:ss.SSS+HH:MM`.
    package static let maxTextLength = 29

    /// Writes `format(instant, offset:)`'s text as UTF-8 at `start` (room for `maxTextLength` bytes) and answers
    /// its length: a result writes instants so, straight into its output.
    package static func write(_ instant: Instant, offset: Int, to start: UnsafeMutablePointer<UInt8>) -> Int {
        let local = instant.secondsSince1970 + Int64(offset)
        let writesOffset =
            offset % 60 == 0 && local >= earliestMidnight && local < afterLatestMidnight
        return writeText(instant, offset: writesOffset ? offset : 0, to: start)
    }

    /// `instant` as local time at `offset`, which is a whole number of minutes: the text's fields from integers
    /// alone, the milliseconds truncated from the instant's nanoseconds (no libm `floor`, no `Double`: a dashboard
    /// writes 48 instants, and these are a good part of encoding it).
    private static func writeText(_ instant: Instant, offset: Int, to start: UnsafeMutablePointer<UInt8>) -> Int {
        let milliseconds = Int(instant.nanoseconds / 1_000_000)
        let (dayNumber, secondOfDay) = floorDivision(Int(instant.secondsSince1970) + offset, by: 86_400)
        LocalDate(dayNumber: dayNumber).writeText(to: start)
        start[10] = UInt8(ascii: "T")
        let time = UInt32(truncatingIfNeeded: secondOfDay)  // 0..<86,400: unsigned divisions cost less
        let minutes = time / 60
        LocalDate.writeDigitPair(minutes / 60, to: start + 11)
        start[13] = UInt8(ascii: ":")
        LocalDate.writeDigitPair(minutes % 60, to: start + 14)
        start[16] = UInt8(ascii: ":")
        LocalDate.writeDigitPair(time % 60, to: start + 17)
        var end = start + 19
        if milliseconds != 0 {
            end[0] = UInt8(ascii: ".")
            LocalDate.writeDigits(milliseconds, count: 3, to: end + 1)
            end += 4
        }
        guard offset != 0 else {
            end[0] = UInt8(ascii: "Z")
            return end + 1 - start
        }
        let offsetMinutes = UInt32(truncatingIfNeeded: abs(offset) / 60)
        end[0] = offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
        LocalDate.writeDigitPair(offsetMinutes / 60, to: end + 1)
        end[3] = UInt8(ascii: ":")
        LocalDate.writeDigitPair(offsetMinutes % 60, to: end + 4)
        return end + 6 - start
    }

    /// `value` divided by a positive `divisor`, rounded toward negative infinity, and the remainder that goes with it
    /// (never negative): an instant before 1970 still has its time of day counted forward from its midnight.
    @inline(__always)
    private static func floorDivision(_ value: Int, by divisor: Int) -> (quotient: Int, remainder: Int) {
        let quotient = value / divisor
        let remainder = value - quotient * divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    private static func digit(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func twoDigits(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int? {
        guard index + 1 < bytes.count, let tens = digit(bytes[index]), let ones = digit(bytes[index + 1]) else {
            return nil
        }
        return tens * 10 + ones
    }
}
