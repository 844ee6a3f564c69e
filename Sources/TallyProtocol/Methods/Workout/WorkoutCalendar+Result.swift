import TallyCalendar

extension WorkoutCalendar {
    /// The month as the calendar screen shows it; `start_date`, `end_date` and `days` are the activity-calendar
    /// API's response, the rest are the History view's streak, marks and navigation.
    public struct Result: Codable, Sendable, Hashable {
        public var month: YearMonth
        /// Today in the request's zone.
        public var asOf: LocalDate
        /// The month's first day.
        public var startDate: LocalDate
        /// The month's last day.
        public var endDate: LocalDate
        /// The types shown, in canonical order.
        public var types: [ActivityType]
        /// Only days with at least one activity of `types`, keyed `yyyy-MM-dd`.
        public var days: [String: Day]
        /// The keys of `days`, ascending: the days that get a dot.
        public var markedDays: [LocalDate]
        /// The current workout streak (workouts only, whatever the filter).
        public var currentStreak: Streak
        public var hasEarlier: Bool
        public var hasLater: Bool
        /// Nothing of `types` this month: the "No workouts logged yet" state.
        public var isEmpty: Bool
        /// Activities of every list (whatever `types` says) that are future, after now or dated after today: left
        /// out of the days, the streak and the navigation.
        public var futureActivitiesIgnored: Int

        enum CodingKeys: String, CodingKey {
            case month, types, days
            case asOf = "as_of"
            case futureActivitiesIgnored = "future_activities_ignored"
            case startDate = "start_date"
            case endDate = "end_date"
            case markedDays = "marked_days"
            case currentStreak = "current_streak"
            case hasEarlier = "has_earlier"
            case hasLater = "has_later"
            case isEmpty = "is_empty"
        }

        public init(
            month: YearMonth, asOf: LocalDate, startDate: LocalDate, endDate: LocalDate, types: [ActivityType],
            days: [String: Day], markedDays: [LocalDate], currentStreak: Streak, hasEarlier: Bool, hasLater: Bool,
            isEmpty: Bool, futureActivitiesIgnored: Int
        ) {
            self.month = month
            self.asOf = asOf
            self.startDate = startDate
            self.endDate = endDate
            self.types = types
            self.days = days
            self.markedDays = markedDays
            self.currentStreak = currentStreak
            self.hasEarlier = hasEarlier
            self.hasLater = hasLater
            self.isEmpty = isEmpty
            self.futureActivitiesIgnored = futureActivitiesIgnored
        }
    }

    /// One day's activities, ordered by completion time.
    public struct Day: Codable, Sendable, Hashable {
        public var activities: [Activity]

        public init(activities: [Activity]) { self.activities = activities }
    }

    /// One activity card.
    public struct Activity: Codable, Sendable, Hashable {
        /// `<type>-<id>` (`workout-123`): unique across types, as the app's list identity and navigation expect.
        public var id: String
        /// The id as the client gave it.
        public var sourceID: String
        public var type: ActivityType
        /// The completion instant in the request zone's local time (`2026-06-14T23:30:00-07:00`).
        public var completedAt: Timestamp
        public var summary: Summary

        enum CodingKeys: String, CodingKey {
            case id, type, summary
            case sourceID = "source_id"
            case completedAt = "completed_at"
        }

        public init(id: String, sourceID: String, type: ActivityType, completedAt: Timestamp, summary: Summary) {
            self.id = id
            self.sourceID = sourceID
            self.type = type
            self.completedAt = completedAt
            self.summary = summary
        }
    }

    /// What a card shows; only the members of the activity's type are present.
    public struct Summary: Codable, Sendable, Hashable {
        /// Workout: its name.
        public var name: String?
        /// Workout: the plan day's name, or the workout's name when it has none.
        public var dayName: String?
        /// Workout: exercises logged.
        public var exerciseCount: Int?
        /// Workout: sets logged over all exercises, bodyweight sets included.
        public var setCount: Int?
        /// Stretch: regions in the order logged.
        public var regions: [String]?
        /// Stretch and meditation: the session's length.
        public var durationSeconds: Int?

        /// Only the members of the activity's type are present.
        enum CodingKeys: String, JSONOmittingNilMembers {
            case name, regions
            case dayName = "day_name"
            case exerciseCount = "exercise_count"
            case setCount = "set_count"
            case durationSeconds = "duration_seconds"
        }

        public init(
            name: String? = nil, dayName: String? = nil, exerciseCount: Int? = nil, setCount: Int? = nil,
            regions: [String]? = nil, durationSeconds: Int? = nil
        ) {
            self.name = name
            self.dayName = dayName
            self.exerciseCount = exerciseCount
            self.setCount = setCount
            self.regions = regions
            self.durationSeconds = durationSeconds
        }
    }

    /// The current workout streak, with the members `streak.summary`'s current streak has under the same names.
    public struct Streak: Codable, Sendable, Hashable {
        /// Consecutive days with a workout, ending today (once today has one) or yesterday; 0 for none.
        public var days: Int
        /// The streak's first day; null when `days` is 0.
        public var startDate: LocalDate?
        /// The streak's last day (today or yesterday); null when `days` is 0.
        public var endDate: LocalDate?
        /// Whether today has a workout and is counted.
        public var includesToday: Bool

        enum CodingKeys: String, CodingKey {
            case days
            case startDate = "start_date"
            case endDate = "end_date"
            case includesToday = "includes_today"
        }

        public init(days: Int, startDate: LocalDate?, endDate: LocalDate?, includesToday: Bool) {
            self.days = days
            self.startDate = startDate
            self.endDate = endDate
            self.includesToday = includesToday
        }
    }
}
