import TallyCore

/// A day's state on the wire is its raw value (`completed`, `in_progress`, `full`, `zero`, `no_data`, `future`),
/// the same in every method that shows a day.
extension DayState: Codable {}
