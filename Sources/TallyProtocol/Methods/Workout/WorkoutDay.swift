import TallyCalendar
import TallyJSONCoding

/// `workout.day`: the drill-down of one local date: its workouts with volumes per workout and per exercise,
/// the weights used, "Week Y of Z" and "Logged N times". Served by `tally.workout`.
public enum WorkoutDay: TallyMethod {
    public static let name = "workout.day"
    public static let service = TallyService.workout

    /// The time frame, the date, and the unit and history (`WorkoutHistoryParams`), all flat in `params`.
    public struct Params: Codable, Sendable, Hashable {
        public var time: RequestTime
        /// The local date drilled into.
        public var date: LocalDate
        /// The unit and every workout the client has: the day's workouts are picked from it.
        public var history: WorkoutHistoryParams

        public init(
            time: RequestTime, date: LocalDate, unit: WeightUnit = .kilogram, workouts: [WorkoutParams] = []
        ) {
            self.time = time
            self.date = date
            self.history = WorkoutHistoryParams(unit: unit, workouts: workouts)
        }

        enum CodingKeys: String, CodingKey {
            case date
        }

        // Decoded in the order that decides which error a request gets: time frame, date, then unit and history.
        public init(from decoder: any Decoder) throws {
            time = try RequestTime(from: decoder)
            date = try decoder.container(keyedBy: CodingKeys.self).decode(LocalDate.self, forKey: .date)
            history = try WorkoutHistoryParams(from: decoder)
        }

        public func encode(to encoder: any Encoder) throws {
            try time.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(date, forKey: .date)
            try history.encode(to: encoder)
        }
    }
}

extension WorkoutDay.Params: JSONDirectDecodable {
    /// The time frame, `date`, `unit` and `workouts` read directly.
    public init?(direct cursor: inout JSONCursor) {
        var time = RequestTime.DirectMembers()
        var history = WorkoutHistoryParams.DirectMembers()
        var date: LocalDate?
        let read = cursor.object { key, cursor in
            if let read = history.read(key, &cursor) ?? time.read(key, &cursor) { return read }
            guard key.is("date"), date == nil else { return false }
            date = cursor.fixedText(width: 10, LocalDate.init(checkedUTF8:))
            return date != nil
        }
        guard read, let time = time.value, let date else { return nil }
        let workouts = history.value
        self.init(time: time, date: date, unit: workouts.unit, workouts: workouts.workouts)
    }
}
