import TallyCalendar
import TallyJSONCoding
import TallyProtocol

/// How long one call may take, and the same moment as the wall-clock deadline the request carries, so that no
/// worker computes it after the gateway has answered.
struct CallTime: Sendable {
    /// The time the call is given, from now.
    let duration: Duration
    /// When it ends, on the wall clock.
    let deadline: Instant

    init(duration: Duration, now: Instant) {
        self.duration = duration
        deadline = now.advanced(by: duration)
    }
}

/// The gateway's rules for a call's time: the caller's `Request-Timeout`, or the envelope's own `deadline`, or the
/// default; never more than the maximum.
package struct Timeouts: Sendable, Hashable {
    /// A call's time when the request names none.
    package var defaultTimeout: Duration
    /// The most a request may ask for; it is given this much when it asks for more.
    package var maximum: Duration

    package init(defaultTimeout: Duration, maximum: Duration) {
        self.defaultTimeout = defaultTimeout
        self.maximum = maximum
    }

    /// What the `Request-Timeout` header asks for, if it is there.
    /// - Throws: `invalid_request` naming `deadline` (which the header becomes) for a value that is not a duration.
    func asked(_ header: String?) throws(TallyError) -> Duration? {
        guard let header else { return nil }
        guard let asked = RequestTimeout.parse(Substring(header)) else {
            throw .invalidRequest(
                "deadline",
                "the \(RequestTimeout.header) header '\(header.prefix(64))' is not a positive duration such as 2s, "
                    + "250ms or 1m30s")
        }
        return asked
    }

    /// The time of a call that asked for `asked` (or nothing).
    func time(asked: Duration?, now: Instant) -> CallTime {
        CallTime(duration: min(asked ?? defaultTimeout, maximum), now: now)
    }

    /// The time of an envelope whose own deadline is `deadline`: until then, or sooner if the header asks so.
    /// - Returns: `nil` when the deadline has passed already.
    func time(until deadline: Instant, asked: Duration?, now: Instant) -> CallTime? {
        let left = deadline.duration(since: now)
        guard left > .zero else { return nil }
        return CallTime(duration: min(left, asked ?? maximum, maximum), now: now)
    }
}
