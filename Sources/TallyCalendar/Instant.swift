import Foundation

/// A moment on the UTC time line, to the nanosecond: what an RFC 3339 text names, kept exactly.
///
/// Why not `Date`: a `Date` is a `Double` of seconds, precise to about 0.2 µs today and 8 µs in the years 1 and
/// 9999. A text such as `0001-02-04T23:59:59.999999Z` or `2026-02-04T23:59:59.999999999Z` (Go's `RFC3339Nano`,
/// Java's `Instant.toString()`) read into one rounds up into the next second, and at midnight into the next day:
/// its local date, hour and minute would all move. Whole seconds and the nanoseconds into the second, as integers,
/// keep every text's own digits to the nanosecond (a longer fraction is truncated, never rounded), so that any
/// coarser unit — the millisecond a result writes, the second, the minute, the day — is the text's, truncated.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Whole seconds since 1970-01-01T00:00:00Z, negative before it: the instant's second, rounded down.
    public let secondsSince1970: Int64
    /// Nanoseconds into that second: 0 to 999,999,999.
    public let nanoseconds: Int32

    /// The instant `secondsSince1970` seconds and `nanoseconds` nanoseconds after 1970-01-01T00:00:00Z; nanoseconds
    /// outside 0..<1,000,000,000 carry into the seconds.
    public init(secondsSince1970: Int64, nanoseconds: Int64 = 0) {
        let (carry, remainder) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        let below = remainder < 0
        self.secondsSince1970 = secondsSince1970 + carry - (below ? 1 : 0)
        self.nanoseconds = Int32(below ? remainder + 1_000_000_000 : remainder)
    }

    /// The instant `date` names, to the nanosecond its `Double` holds (rounded down).
    public init(_ date: Date) {
        let seconds = date.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        var nanoseconds = Int64(((seconds - whole) * 1e9).rounded(.down))
        nanoseconds = min(max(nanoseconds, 0), 999_999_999)
        self.init(secondsSince1970: Int64(whole), nanoseconds: nanoseconds)
    }

    /// This instant as a `Date` (for Foundation's zone rules, which take one): exact for whole seconds, within the
    /// `Double`'s precision otherwise.
    public var date: Date {
        Date(timeIntervalSince1970: Double(secondsSince1970) + Double(nanoseconds) / 1e9)
    }

    /// The instant's whole second as a `Date`: exact, as every whole second of the supported years is in a `Double`.
    public var dateOfSecond: Date { Date(timeIntervalSince1970: Double(secondsSince1970)) }

    /// Now, on the system's real-time clock, to the nanosecond it gives.
    public static var now: Instant {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Instant(secondsSince1970: Int64(time.tv_sec), nanoseconds: Int64(time.tv_nsec))
    }

    /// Milliseconds since 1970-01-01T00:00:00Z, rounded down: the millisecond the instant falls in.
    public var millisecondsSince1970: Int64 {
        secondsSince1970 * 1000 + Int64(nanoseconds / 1_000_000)
    }

    /// The instant `duration` later (earlier for a negative one), to the nanosecond.
    public func advanced(by duration: Duration) -> Instant {
        let (seconds, attoseconds) = duration.components
        return Instant(
            secondsSince1970: secondsSince1970 + seconds,
            nanoseconds: Int64(nanoseconds) + attoseconds / 1_000_000_000)
    }

    /// The time from `other` to this instant.
    public func duration(since other: Instant) -> Duration {
        .seconds(secondsSince1970 - other.secondsSince1970)
            + .nanoseconds(Int64(nanoseconds) - Int64(other.nanoseconds))
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        (lhs.secondsSince1970, lhs.nanoseconds) < (rhs.secondsSince1970, rhs.nanoseconds)
    }

    /// RFC 3339 in UTC, to the millisecond: `2026-03-08T07:30:00.250Z`.
    public var description: String { RFC3339.format(self, offset: 0) }
}
