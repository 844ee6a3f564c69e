import TallyCalendar
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

        public init(
            hour: Int, start: String, end: String, steps: Int?, distanceMeters: Double?, calories: Double?,
            flightsClimbed: Int?, isFuture: Bool
        ) {
            self.hour = hour
            self.start = start
            self.end = end
            self.steps = steps
            self.distanceMeters = distanceMeters
            self.calories = calories
            self.flightsClimbed = flightsClimbed
            self.isFuture = isFuture
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
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

        public init(
            mode: DashboardMode, date: LocalDate, asOf: LocalDate, day: HistoryDayResult, startDate: LocalDate,
            endDate: LocalDate, hours: [HourResult]? = nil, hasHourlyData: Bool? = nil, days: [HistoryDayResult]? = nil,
            totals: StepTotalsResult, reviewPromptDue: Bool, futureRecordsIgnored: Int, samplesIgnored: Int? = nil
        ) {
            self.mode = mode
            self.date = date
            self.asOf = asOf
            self.day = day
            self.startDate = startDate
            self.endDate = endDate
            self.hours = hours
            self.hasHourlyData = hasHourlyData
            self.days = days
            self.totals = totals
            self.reviewPromptDue = reviewPromptDue
            self.futureRecordsIgnored = futureRecordsIgnored
            self.samplesIgnored = samplesIgnored
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
    static let fastKeys = JSONKeySet<CodingKeys>()

    /// The members, written directly (24 of these, 23 or 25 on a DST day).
    public func writeMembers(to object: inout JSONObjectWriter) throws {
        for key in Self.fastKeys.keys {
            switch key {
            case .hour: object.int(key.stringValue, hour)
            case .start: object.string(key.stringValue, start)
            case .end: object.string(key.stringValue, end)
            case .steps: object.int(key.stringValue, steps)
            case .distanceMeters: try object.double(key.stringValue, distanceMeters)
            case .calories: try object.double(key.stringValue, calories)
            case .flightsClimbed: object.int(key.stringValue, flightsClimbed)
            case .isFuture: object.bool(key.stringValue, isFuture)
            }
        }
    }
}
