import TallyProtocol

/// A user whose data this backend holds. Canned here; a real backend reads users and their records from its
/// database and builds the same params from them.
struct User: Sendable {
    var timeZone: ZoneName
    var goal: Int

    static let known: [String: User] = [
        "ada": User(timeZone: ZoneName("Europe/Berlin")!, goal: 8_000),
        "grace": User(timeZone: ZoneName("America/New_York")!, goal: 10_000),
    ]

    /// Twelve days of 9,010 to 9,120 steps before today, and 3,000 steps so far today, today being the date of
    /// `time` in the user's zone (as Tally will count it).
    func records(at time: RequestTime) -> [DailyRecordParams] {
        let today = time.today
        let past = (1...12).map { back in DailyRecordParams(date: today.adding(days: -back), steps: 9_000 + back * 10) }
        return past + [DailyRecordParams(date: today, steps: 3_000)]
    }
}

extension GoalParams {
    /// A goal that never changed. The first entry of a goal log also applies to the days before it, so one entry
    /// dated today covers the whole history.
    static func constant(_ goal: Int, at time: RequestTime) -> GoalParams {
        GoalParams(log: [GoalChange(effectiveDate: time.today, goal: goal)])
    }
}
