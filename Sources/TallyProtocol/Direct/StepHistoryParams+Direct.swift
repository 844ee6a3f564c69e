import TallyCalendar
import TallyJSONCoding

extension StepHistoryParams: JSONDirectDecodable {
    /// The flat params of `streak.summary` read directly: the time frame, the goal keys, `records` and
    /// `week_starts_on`, in any order, each once (`JSONDirectDecodable`).
    public init?(direct cursor: inout JSONCursor) {
        var reader = DirectMembers()
        guard cursor.object({ key, cursor in reader.read(key, &cursor) ?? false }), let params = reader.value else {
            return nil
        }
        self = params
    }

    /// The members every step method's params share, as a direct read of flat params meets them; the methods that
    /// take more offer their own keys first.
    public struct DirectMembers {
        var time = RequestTime.DirectMembers()
        var goals = GoalParams.DirectMembers()
        var records: [DailyRecordParams]?
        var weekStart: WeekStart?

        public init() {}

        /// Reads the value of `key` when it is one of these members: `true` once read, `false` when it cannot be
        /// (or was read before), `nil` when the key is not one of them.
        public mutating func read(_ key: JSONKeyBytes, _ cursor: inout JSONCursor) -> Bool? {
            if let read = time.read(key, &cursor) ?? goals.read(key, &cursor) { return read }
            if key.is("records") {
                guard records == nil, let list = cursor.array(of: DailyRecordParams.self) else { return false }
                records = list
            } else if key.is("week_starts_on") {
                guard weekStart == nil, let start = cursor.name(of: WeekStart.self) else { return false }
                weekStart = start
            } else {
                return nil
            }
            return true
        }

        /// The params, with `init(from:)`'s defaults (no records, weeks from Sunday); `nil` without a valid time
        /// frame or a goal log.
        public var value: StepHistoryParams? {
            guard let time = time.value, let goals = goals.value else { return nil }
            return StepHistoryParams(
                time: time, goals: goals, records: records ?? [], weekStartsOn: weekStart ?? .sunday)
        }
    }
}
