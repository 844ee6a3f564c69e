// The snippets of the TallyProtocol and TallyCalendar catalogues (Sources/TallyProtocol/TallyProtocol.docc,
// Sources/TallyCalendar/TallyCalendar.docc), line for line, so that the build checks them. TallyProtocol re-exports
// TallyCalendar. None of them runs.

import TallyProtocol

/// A request's time frame, three ways.
func timeFrames() {
    let berlin = ZoneName("Europe/Berlin")!  // nil for a name the tz database does not give
    let asOfNow = RequestTime(timeZone: berlin, now: Instant.now)
    let asOfADay = RequestTime(timeZone: berlin, today: LocalDate(year: 2026, month: 11, day: 23)!)
    let byOffset = RequestTime(zone: .fixedOffset(minutes: 60), reference: .today(asOfADay.today))
    print(asOfNow.today, asOfADay.today, byOffset.today)
}

/// Reading an error's code and details.
func explain(_ error: TallyError) -> String {
    switch error.code {
    case .invalidParams, .invalidRequest, .payloadTooLarge:
        return "\(error.details?.field ?? "the request"): \(error.details?.problem ?? error.message)"
    case .overloaded:
        return "busy: try again in \(error.details?.retryAfterMilliseconds ?? 1_000) ms"
    default:  // an open set: anything else is treated like `internal`
        return "Tally failed: \(error.message)"
    }
}

/// Dates.
func dates() throws {
    let date = LocalDate(year: 2026, month: 3, day: 8)!  // nil for a date that does not exist (2025-02-30)
    let weekLater = date.adding(days: 7)  // 2026-03-15, whatever the clocks did in between
    print(date.days(to: weekLater), date.weekday.name, date.yearMonth)  // 7 Sunday 2026-03
    let parsed = try LocalDate(parsing: "2024-02-29")  // throws LocalDateParseError, saying what is wrong
    print(parsed, LocalDate("2025-02-29") == nil)  // 2024-02-29 true
}

/// Months.
func months() {
    let november = YearMonth(year: 2026, month: 11)!
    print(november.firstDay, november.lastDay, november.dayCount)  // 2026-11-01 2026-11-30 30
    print(november.next!, november.contains(LocalDate(year: 2026, month: 11, day: 23)!))  // 2026-12 true
}

/// Week grids.
func weeks() {
    let monday = WeekStart.monday
    let first = LocalDate(year: 2026, month: 11, day: 1)!  // a Sunday
    print(monday.leadingBlanks(before: first.weekday))  // 6 blank cells before the 1st in a Monday-first grid
    print(monday.startOfWeek(containing: first))  // 2026-10-26
    print(monday.orderedWeekdays.map(\.name))  // Monday … Sunday: the grid's columns
}

/// Instants, exactly.
func instants() throws {
    let (instant, offset) = try RFC3339.parse("2026-02-04T23:59:59.999999999+01:00")
    print(instant.secondsSince1970, instant.nanoseconds, offset)  // 1770245999 999999999 3600
    print(RFC3339.format(instant, offset: offset))  // 2026-02-04T23:59:59.999+01:00: truncated, never rounded
    print(LocalDate(at: instant, utcOffset: offset))  // 2026-02-04, the text's own date
}
