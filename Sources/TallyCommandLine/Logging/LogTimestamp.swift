import Foundation

/// The time of a log line as RFC 3339 in UTC with microseconds: `2026-11-23T15:20:01.123456Z`.
///
/// UTC, because lines from hosts in different zones are merged and sorted by pipelines; microseconds, because a
/// broker logs several events per millisecond under load and their order matters when reading a failure. Written
/// from `clock_gettime` and `gmtime_r` rather than a `DateFormatter`: it runs on every log line, on any thread.
package enum LogTimestamp {
    /// Now.
    package static func now() -> String {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return format(seconds: Int(time.tv_sec), nanoseconds: Int(time.tv_nsec))
    }

    /// `seconds` since 1970-01-01T00:00:00Z plus `nanoseconds` (0..<1e9), truncated to microseconds.
    package static func format(seconds: Int, nanoseconds: Int) -> String {
        var whole = time_t(seconds)
        var parts = tm()
        gmtime_r(&whole, &parts)
        var text = ""
        text.reserveCapacity(27)
        append(Int(parts.tm_year) + 1900, digits: 4, to: &text)
        text.append("-")
        append(Int(parts.tm_mon) + 1, digits: 2, to: &text)
        text.append("-")
        append(Int(parts.tm_mday), digits: 2, to: &text)
        text.append("T")
        append(Int(parts.tm_hour), digits: 2, to: &text)
        text.append(":")
        append(Int(parts.tm_min), digits: 2, to: &text)
        text.append(":")
        append(Int(parts.tm_sec), digits: 2, to: &text)
        text.append(".")
        append(nanoseconds / 1000, digits: 6, to: &text)
        text.append("Z")
        return text
    }

    private static func append(_ value: Int, digits: Int, to text: inout String) {
        let decimal = String(value)
        text.append(String(repeating: "0", count: max(0, digits - decimal.count)))
        text.append(decimal)
    }
}
