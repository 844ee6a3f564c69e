import Foundation
import TallyCalendar

/// The `Request-Timeout` header: how long a call may take, retries included.
///
/// `250ms`, `2s`, `1.5s`, `1m30s` or `1h` (units from larger to smaller, each once), or a bare number of seconds,
/// as `Retry-After` counts them. There is no standard header for this; the name is the one HTTP clients of
/// deadline-carrying RPC systems most often use, and its value is the duration syntax of every other Tally setting,
/// with seconds for a bare number because that is HTTP's unit.
package enum RequestTimeout {
    package static let header = "Request-Timeout"

    /// The duration `text` says, or `nil` when it is not one this header takes (or is not positive).
    package static func parse(_ text: Substring) -> Duration? {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, text.utf8.count <= 64 else { return nil }
        if let seconds = Double(text), text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) {
            return seconds > 0 && seconds < 1e9 ? .milliseconds(Int64((seconds * 1000).rounded(.up))) : nil
        }
        guard let total = CompoundDuration.milliseconds(Substring(text)), total >= 1, total < 1e12 else { return nil }
        return .milliseconds(Int64(total.rounded(.up)))
    }
}
