import Foundation
import TallyCalendar
import TallyCore
import TallyJSONCoding
import TallyProtocol

extension ZoneCalendar {
    /// The local date of an instant the request gave at `path`; the date must be one Tally supports, because every
    /// answer that places the instant on a day names that day.
    /// - Throws: `invalid_params` on `path` when the instant's local date in this zone lies before 0001-01-01 or
    ///   after 9999-12-31 (9999-12-31T20:00:00Z is already 10000-01-01 in Pacific/Kiritimati).
    func requestDate(of instant: Instant, at path: @autoclosure () -> FieldPath) throws(TallyError) -> LocalDate {
        guard let date = supportedLocalDate(of: instant) else {
            throw .invalidParams(
                path(), "falls on a local date outside 0001-01-01...9999-12-31 in the request's zone")
        }
        return date
    }
}
