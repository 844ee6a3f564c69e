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

extension HistoryMonths.Params: JSONDirectDecodable {
    /// `time frame`, `records` and `is_pro` read directly.
    public init?(direct cursor: inout JSONCursor) {
        var time = RequestTime.DirectMembers()
        var records: [DailyRecordParams]?
        var isPro: Bool?
        let read = cursor.object { key, cursor in
            if let read = time.read(key, &cursor) { return read }
            if key.is("records"), records == nil {
                records = cursor.array(of: DailyRecordParams.self)
                return records != nil
            }
            if key.is("is_pro"), isPro == nil {
                isPro = cursor.bool()
                return isPro != nil
            }
            return false
        }
        guard read, let time = time.value else { return nil }
        self.init(time: time, records: records ?? [], isPro: isPro ?? false)
    }
}

extension HistoryMonth.Params: JSONDirectDecodable {
    /// The step members, `is_pro` and `month` read directly.
    public init?(direct cursor: inout JSONCursor) {
        var shared = StepHistoryParams.DirectMembers()
        var isPro: Bool?
        var month: YearMonth?
        let read = cursor.object { key, cursor in
            if key.is("is_pro") {
                guard isPro == nil else { return false }
                isPro = cursor.bool()
                return isPro != nil
            }
            if key.is("month") {
                guard month == nil else { return false }
                month = cursor.string().flatMap { try? YearMonth(parsing: $0) }
                return month != nil
            }
            return shared.read(key, &cursor) ?? false
        }
        guard read, let shared = shared.value else { return nil }
        self.init(
            time: shared.time, goals: shared.goals, records: shared.records, month: month,
            weekStartsOn: shared.weekStartsOn, isPro: isPro ?? false)
    }
}

extension HistoryDashboard.Params: JSONDirectDecodable {
    /// The step members, `is_pro`, `samples`, `date` and `mode` read directly.
    public init?(direct cursor: inout JSONCursor) {
        var shared = StepHistoryParams.DirectMembers()
        var isPro: Bool?
        var samples: [StepSampleParams]?
        var date: LocalDate?
        var mode: DashboardMode?
        let read = cursor.object { key, cursor in
            if key.is("samples") {
                guard samples == nil else { return false }
                samples = cursor.array(of: StepSampleParams.self)
                return samples != nil
            }
            if key.is("is_pro") {
                guard isPro == nil else { return false }
                isPro = cursor.bool()
                return isPro != nil
            }
            if key.is("date") {
                guard date == nil else { return false }
                date = cursor.fixedText(width: 10, { try? LocalDate(utf8: $0) })
                return date != nil
            }
            if key.is("mode") {
                guard mode == nil else { return false }
                mode = cursor.name(of: DashboardMode.self)
                return mode != nil
            }
            return shared.read(key, &cursor) ?? false
        }
        guard read, let shared = shared.value else { return nil }
        self.init(
            time: shared.time, goals: shared.goals, records: shared.records, samples: samples ?? [], date: date,
            mode: mode ?? .daily, weekStartsOn: shared.weekStartsOn, isPro: isPro ?? false)
    }
}
