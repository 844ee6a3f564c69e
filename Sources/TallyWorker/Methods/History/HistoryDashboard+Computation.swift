import TallyCalendar
import TallyCore
import TallyJSONCoding
import TallyProtocol

extension HistoryDashboard: ComputedMethod {
    /// Validates everything and computes the dashboard of the selected day.
    /// - Throws: `invalid_params` (a date after today, a chart reaching beyond the supported dates or instants,
    ///   goal log, records, samples), `payload_too_large`, `pro_required` for `weekly` or `monthly` without Pro.
    package static func result(for params: Params, limits: RequestLimits) throws(TallyError) -> Result {
        let valid = try params.validated(limits: limits)
        let reference = valid.reference
        let samples = try StepSampleParams.samples(params.samples, at: .params + "samples", limits: limits)
        let selected = params.date ?? reference.today
        guard selected <= reference.today else {
            throw .invalidParams(
                .params + "date", "is after today (\(reference.today)): future days cannot be selected")
        }
        let mode = params.mode
        if mode.needsPro, !params.isPro {
            throw .proRequired(.params + "mode", "the \(params.mode.rawValue) chart")
        }
        let calendar = params.time.calendar
        let dashboard: StepDashboard
        do {
            dashboard = try StepDashboard(
                mode: mode, date: selected, history: valid.history, samples: samples, goals: valid.goals,
                today: reference.today, now: reference.now, calendar: calendar, weekStart: params.weekStartsOn)
        } catch {
            // The selected day is `date`, or today when the request leaves it out: either way `params.date`.
            throw .invalidParams(.params + "date", "\(error)")
        }
        let day = HistoryDayResult(dashboard.day)
        let totals = StepTotalsResult(dashboard.totals)
        let futureRecords = valid.history.countAfter(reference.today)
        switch dashboard.series {
        case .hours(let series):
            return Result(
                mode: params.mode, date: dashboard.day.date, asOf: reference.today, day: day, startDate: series.date,
                endDate: series.date, hours: series.buckets.map { HourResult($0, calendar: calendar) },
                hasHourlyData: series.hasData, samplesIgnored: series.samplesIgnored, totals: totals,
                reviewPromptDue: dashboard.reviewPromptDue, futureRecordsIgnored: futureRecords)
        case .days(let days):
            return Result(
                mode: params.mode, date: dashboard.day.date, asOf: reference.today, day: day,
                startDate: days.first!.date,
                endDate: days.last!.date, days: days.map(HistoryDayResult.init), totals: totals,
                reviewPromptDue: dashboard.reviewPromptDue, futureRecordsIgnored: futureRecords)
        }
    }
}

extension HistoryDashboard.HourResult {
    /// A bucket of the daily chart: its start and end as local RFC 3339 times, measures to 2 decimals.
    init(_ bucket: HourlySeries.Bucket, calendar: ZoneCalendar) {
        let hour = bucket.hour
        self.init(
            hour: hour.hour, start: Timestamp(hour.start, offset: hour.utcOffset),
            end: Timestamp(hour.end, offset: calendar.utcOffset(at: hour.end)), steps: bucket.totals?.steps,
            distanceMeters: bucket.totals?.distanceMeters.map { FigureRounding.rounded($0, places: 2) },
            calories: bucket.totals?.calories.map { FigureRounding.rounded($0, places: 2) },
            flightsClimbed: bucket.totals?.flightsClimbed, isFuture: bucket.isFuture)
    }
}
