import Foundation
import TallyCore

extension ZoneCaseCheck {
    /// `streak.summary`: today is the zone's date of `now`, and the heatmap is the 30 days ending today in whole
    /// 7-day rows (refused when those days would begin before 0001-01-01).
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
    }
}
