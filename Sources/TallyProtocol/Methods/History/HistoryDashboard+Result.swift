import TallyCalendar
import TallyCore
import TallyJSONCoding

extension HistoryDashboard {
    /// One bucket of the daily chart. `start` carries the local offset, so the two 01:00 hours of a fall-back day
    /// stay distinct; measures are null when the day has no samples or the hour is still to come.
    public struct HourResult: Codable, Sendable, Hashable {
        /// Wall-clock hour at the start, 0...23.
        public var hour: Int
        public var start: String
        public var end: String
        public var steps: Int?
        public var distanceMeters: Double?
        public var calories: Double?
        public var flightsClimbed: Int?
        public var isFuture: Bool

        public init(_ bucket: HourlySeries.Bucket, calendar: ZoneCalendar) {
            hour = bucket.hour.hour
            start = bucket.hour.label
            end = RFC3339.format(bucket.hour.end, offset: calendar.utcOffset(at: bucket.hour.end))
            steps = bucket.totals?.steps
            distanceMeters = bucket.totals?.distanceMeters.map { TallyJSON.rounded($0, places: 2) }
            calories = bucket.totals?.calories.map { TallyJSON.rounded($0, places: 2) }
            flightsClimbed = bucket.totals?.flightsClimbed
            isFuture = bucket.isFuture
        }

        enum CodingKeys: String, CodingKey {
            case hour, start, end, steps
            case distanceMeters = "distance_m"
            case calories = "calories_kcal"
            case flightsClimbed = "flights_climbed"
            case isFuture = "is_future"
        }
    }

    /// The dashboard. `hours` is present in `daily` mode, `days` in `weekly` and `monthly`.
    public struct Result: Codable, Sendable, Hashable {
        public var mode: DashboardMode
        /// The selected day.
        public var date: LocalDate
        /// Today in the request's zone.
        public var asOf: LocalDate
        /// The step card of the selected day (from its daily record).
        public var day: HistoryDayResult
        /// The chart's first and last day (the selected day itself in daily mode).
        public var startDate: LocalDate
        public var endDate: LocalDate
        /// Daily mode: the elapsed hours of the day: 24, 23 or 25 on DST days (22 and 26 in Troll), none on a date
        /// the zone skipped.
        public var hours: [HourResult]?
        /// Daily mode: whether any sample fell into the day.
        public var hasHourlyData: Bool?
        /// Weekly (7) and monthly (28...31) modes.
        public var days: [HistoryDayResult]?
        /// Sums over the chart (hours: the samples; days: the records up to today).
        public var totals: StepTotalsResult
        public var reviewPromptDue: Bool
        /// Records dated after today, left out.
        public var futureRecordsIgnored: Int
        /// Daily mode: samples outside the selected day or after now, left out.
        public var samplesIgnored: Int?

        public init(_ dashboard: StepDashboard, asOf: LocalDate, futureRecordsIgnored: Int, calendar: ZoneCalendar) {
            mode = dashboard.mode
            date = dashboard.day.date
            self.asOf = asOf
            day = HistoryDayResult(dashboard.day)
            switch dashboard.series {
            case .hours(let series):
                startDate = series.date
                endDate = series.date
                hours = series.buckets.map { HourResult($0, calendar: calendar) }
                hasHourlyData = series.hasData
                samplesIgnored = series.samplesIgnored
            case .days(let days):
                startDate = days.first!.date
                endDate = days.last!.date
                self.days = days.map(HistoryDayResult.init)
            }
            totals = StepTotalsResult(dashboard.totals)
            reviewPromptDue = dashboard.reviewPromptDue
            self.futureRecordsIgnored = futureRecordsIgnored
        }

        /// The members of the other modes are left out, not null.
        enum CodingKeys: String, JSONOmittingNilMembers {
            case mode, date, day, hours, days, totals
            case asOf = "as_of"
            case startDate = "start_date"
            case endDate = "end_date"
            case hasHourlyData = "has_hourly_data"
            case reviewPromptDue = "review_prompt_due"
            case futureRecordsIgnored = "future_records_ignored"
            case samplesIgnored = "samples_ignored"
        }
    }
}

extension HistoryDashboard.HourResult: JSONFastEncodable {
    /// The same members as `encode(to:)`, written directly (24 of these, 23 or 25 on a DST day).
    public func writeMembers(to object: inout JSONObjectWriter) throws {
        object.int(CodingKeys.hour.stringValue, hour)
        object.string(CodingKeys.start.stringValue, start)
        object.string(CodingKeys.end.stringValue, end)
        object.int(CodingKeys.steps.stringValue, steps)
        try object.double(CodingKeys.distanceMeters.stringValue, distanceMeters)
        try object.double(CodingKeys.calories.stringValue, calories)
        object.int(CodingKeys.flightsClimbed.stringValue, flightsClimbed)
        object.bool(CodingKeys.isFuture.stringValue, isFuture)
    }
}
