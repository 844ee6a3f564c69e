import Foundation
import TallyCalendar
import TallyCore

extension ZoneCaseCheck {
    var monthOfDate: YearMonth { zoneCase.date.yearMonth }
    var monthOfToday: YearMonth { LocalDate(dayNumber: todayNumber).yearMonth }

    /// `history.months`: today is the zone's date of `now`, and its month is the last one offered.
    mutating func checkHistoryMonths() {
        let params = "\(zoneCase.timeFrame),\(zoneCase.stepHistory),\"is_pro\":true"
        guard
            let result = answer(
                "history.months", service: "tally.history", params, expectedRefusal: timeFrameRefusal)
        else { return }
        if result["as_of"] as? String != text(todayNumber) { fail("history.months: as_of \(result["as_of"] ?? "-")") }
        if (result["months"] as? [String])?.last != monthOfToday.description {
            fail("history.months: the last month is not today's month \(monthOfToday)")
        }
    }

    /// `history.month` of the selected date's month: every day once, in whole 7-day rows, and every record of the
    /// month up to today in its rows with its steps (a record dated on a date the zone skipped too).
    mutating func checkHistoryMonth() {
        let params =
            "\(zoneCase.timeFrame),\(zoneCase.stepHistory),\"is_pro\":true,\"month\":\"\(monthOfDate)\","
            + "\"week_starts_on\":\"\(zoneCase.weekStart)\""
        let refusal = timeFrameRefusal ?? (monthOfDate > monthOfToday ? "params.month" : nil)
        guard let result = answer("history.month", service: "tally.history", params, expectedRefusal: refusal) else {
            return
        }
        let first = Int(monthOfDate.firstDay.dayNumber)
        let last = Int(monthOfDate.lastDay.dayNumber)
        if dates(result["days"]) != (first...last).map(text) { fail("history.month: the days are not the month's") }
        checkGrid(result["grid"], first: first, last: last, what: "history.month")
        let rows = (result["rows"] as? [[String: Any]] ?? []).map { ($0["date"] as? String, $0["steps"] as? Int) }
        for day in zoneCase.recordDays where day >= first && day <= last && day <= todayNumber {
            if !rows.contains(where: { $0.0 == text(day) && $0.1 == ZoneCase.steps(on: day) }) {
                fail("history.month: the record of \(text(day)) is not in the rows with its steps")
            }
        }
    }

    /// The dashboard refuses a date after today, and a chart that would reach beyond the supported range.
    func dashboardRefusal(rangeHolds: Bool) -> String? {
        timeFrameRefusal ?? (zoneCase.dayNumber > todayNumber || !rangeHolds ? "params.date" : nil)
    }

    /// `history.dashboard` daily: the buckets are the elapsed hours of the day as the oracle finds them, written as
    /// exact instants by the offset rule, each with the samples that started in it.
    mutating func checkDailyDashboard() {
        let day = zoneCase.dayNumber
        let buckets = oracle.hourBuckets(day)
        let (dayStart, dayEnd) = (oracle.dayStart(day), oracle.dayStart(day + 1))
        let writable = ZoneCase.instantRange
        let params =
            "\(zoneCase.timeFrame),\(zoneCase.stepHistory),\(zoneCase.samples),\"date\":\"\(text(day))\""
        let refusal = dashboardRefusal(rangeHolds: writable.contains(dayStart) && writable.contains(dayEnd))
        guard let result = answer("history.dashboard", service: "tally.history", params, expectedRefusal: refusal)
        else { return }
        if result["as_of"] as? String != text(todayNumber) { fail("daily: as_of \(result["as_of"] ?? "-")") }
        guard let hours = result["hours"] as? [[String: Any]] else { return fail("daily: no hours") }
        guard hours.count == buckets.count else {
            return fail("daily: \(hours.count) hours, the day has \(buckets.count) (\(dayEnd - dayStart) s)")
        }
        let now: Double? = day == todayNumber ? zoneCase.now : nil
        let counted = zoneCase.instants.filter { $0 >= dayStart && $0 < dayEnd && $0 <= (now ?? .infinity) }
        for (index, (hour, bucket)) in zip(hours, buckets).enumerated() {
            let (start, end) = (seconds(hour["start"]), seconds(hour["end"]))
            guard start == bucket.start, end == bucket.end else {
                fail("daily: hour \(index) is \(hour["start"] ?? "-")…\(hour["end"] ?? "-"), expected \(bucket)")
                continue
            }
            for (key, instant) in [("start", bucket.start), ("end", bucket.end)]
            where !oracle.isWrittenByTheRule(hour[key] as? String ?? "", at: instant) {
                fail("daily: hour \(index) \(key) \(hour[key] ?? "-") is not written with the zone's offset rule")
            }
            let wallHour = oracle.wallClock(at: bucket.start).secondOfDay / 3600
            if hour["hour"] as? Int != wallHour { fail("daily: hour \(index) says \(hour["hour"] ?? "-")") }
            let isFuture = now.map { bucket.start > $0 } ?? false
            if hour["is_future"] as? Bool != isFuture { fail("daily: hour \(index) is_future is wrong") }
            let inBucket = counted.filter { $0 >= bucket.start && $0 < bucket.end }.count
            let expected: Int? = counted.isEmpty || isFuture ? nil : inBucket
            if hour["steps"] as? Int != expected {
                fail("daily: hour \(index) holds \(hour["steps"] ?? "null") steps, expected \(expected as Any)")
            }
        }
        if result["has_hourly_data"] as? Bool != !counted.isEmpty { fail("daily: has_hourly_data is wrong") }
        if (result["totals"] as? [String: Any])?["steps"] as? Int != counted.count { fail("daily: totals.steps") }
        if result["samples_ignored"] as? Int != zoneCase.instants.count - counted.count {
            fail("daily: samples_ignored \(result["samples_ignored"] ?? "-")")
        }
    }

    /// `history.dashboard` weekly and monthly: the 7 days of the week holding the date (refused when that week
    /// leaves the supported dates), and every day of its month.
    mutating func checkWeeklyAndMonthlyDashboards() {
        let day = zoneCase.dayNumber
        let first = weekFirst(day)
        let base =
            "\(zoneCase.timeFrame),\(zoneCase.stepHistory),\"date\":\"\(text(day))\",\"is_pro\":true,"
            + "\"week_starts_on\":\"\(zoneCase.weekStart)\""
        let weekHolds = first >= Self.earliest && first + 6 <= Self.latest
        if let weekly = answer(
            "history.dashboard", service: "tally.history", base + ",\"mode\":\"weekly\"",
            expectedRefusal: dashboardRefusal(rangeHolds: weekHolds))
        {
            if dates(weekly["days"]) != (first...(first + 6)).map(text) { fail("weekly: not the week of the date") }
        }
        if let monthly = answer(
            "history.dashboard", service: "tally.history", base + ",\"mode\":\"monthly\"",
            expectedRefusal: dashboardRefusal(rangeHolds: true))
        {
            let days = Int(monthOfDate.firstDay.dayNumber)...Int(monthOfDate.lastDay.dayNumber)
            if dates(monthly["days"]) != days.map(text) { fail("monthly: not the days of the month") }
        }
    }
}
