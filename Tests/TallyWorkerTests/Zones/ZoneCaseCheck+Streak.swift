import Foundation
import TallyCore

extension ZoneCaseCheck {
    /// `streak.summary`: today is the zone's date of `now`, the heatmap is the 30 days ending today in whole 7-day
    /// rows (refused when those days would begin before 0001-01-01), and the current streak is as long as the
    /// oracle counts it.
    mutating func checkStreakSummary() {
        let params = "\(zoneCase.timeFrame),\(zoneCase.stepHistory),\"week_starts_on\":\"\(zoneCase.weekStart)\""
        let heatmapFits = todayNumber - 29 >= Self.earliest
        let refusal = timeFrameRefusal ?? (heatmapFits ? nil : "params.now")
        guard let result = answer("streak.summary", service: "tally.streak", params, expectedRefusal: refusal) else {
            return
        }
        if result["as_of"] as? String != text(todayNumber) { fail("streak.summary: as_of \(result["as_of"] ?? "-")") }
        let heatmap = result["heatmap"] as? [String: Any]
        if dates(heatmap?["days"]) != ((todayNumber - 29)...todayNumber).map(text) {
            fail("streak.summary: the heatmap is not the 30 days ending today")
        }
        checkGrid(heatmap?["grid"], first: todayNumber - 29, last: todayNumber, what: "streak.summary heatmap")
        let current = (result["current_streak"] as? [String: Any])?["days"] as? Int
        let expected = expectedCurrentStreak()
        if current != expected {
            fail("streak.summary: current streak \(current.map(String.init) ?? "-") days, expected \(expected)")
        }
    }

    /// The current streak as counted from the case's records by the oracle's days (Protocol/methods/streak.md):
    /// back from today, which counts once its goal is met and breaks nothing before; a past day counts when its
    /// record meets the goal and breaks the streak otherwise, or when it has no record, unless it is a date the
    /// zone skipped, which is stepped over; a record dated on a skipped date is a day like any other.
    func expectedCurrentStreak() -> Int {
        let recorded = Set(zoneCase.recordDays.filter { $0 <= todayNumber })
        let meets = { (day: Int) in ZoneCase.steps(on: day) >= ZoneCase.goal }
        var count = recorded.contains(todayNumber) && meets(todayNumber) ? 1 : 0
        var day = todayNumber - 1
        while day >= Self.earliest {
            if recorded.contains(day) {
                guard meets(day) else { break }
                count += 1
            } else if !oracle.skipped(day) {
                break
            }
            day -= 1
        }
        return count
    }
}
