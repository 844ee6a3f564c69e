import TallyCalendar
import TallyJSONCoding

extension WorkoutHistoryParams {
    /// `unit` and `workouts` as a direct read of flat params meets them, then the history they make with
    /// `init(from:)`'s defaults (kilograms, no workouts).
    public struct DirectMembers {
        var unit: WeightUnit?
        var workouts: [WorkoutParams]?

        public init() {}

        /// Reads the value of `key` when it is `unit` or `workouts`: `true` once read, `false` when it cannot be
        /// (or was read before), `nil` for another key.
        public mutating func read(_ key: JSONKeyBytes, _ cursor: inout JSONCursor) -> Bool? {
            if key.is("workouts") {
                guard workouts == nil, let list = cursor.array(of: WorkoutParams.self) else { return false }
                workouts = list
            } else if key.is("unit") {
                guard unit == nil, let symbol = cursor.text(WeightUnit.init(utf8Symbol:)) else { return false }
                unit = symbol
            } else {
                return nil
            }
            return true
        }

        public var value: WorkoutHistoryParams {
            WorkoutHistoryParams(unit: unit ?? .kilogram, workouts: workouts ?? [])
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
            date = cursor.fixedText(width: 10, { try? LocalDate(utf8: $0) })
            return date != nil
        }
        guard read, let time = time.value, let date else { return nil }
        let workouts = history.value
        self.init(time: time, date: date, unit: workouts.unit, workouts: workouts.workouts)
    }
}

extension WorkoutDetail.Params: JSONDirectDecodable {
    /// The time frame, `workout_id`, `unit` and `workouts` read directly.
    public init?(direct cursor: inout JSONCursor) {
        var time = RequestTime.DirectMembers()
        var history = WorkoutHistoryParams.DirectMembers()
        var workoutID: String?
        let read = cursor.object { key, cursor in
            if let read = history.read(key, &cursor) ?? time.read(key, &cursor) { return read }
            guard key.is("workout_id"), workoutID == nil else { return false }
            workoutID = cursor.string()
            return workoutID != nil
        }
        guard read, let time = time.value, let workoutID else { return nil }
        let workouts = history.value
        self.init(time: time, workoutID: workoutID, unit: workouts.unit, workouts: workouts.workouts)
    }
}

extension WorkoutCalendar.Params: JSONDirectDecodable {
    /// The time frame, `month`, `types` and the three activity lists read directly.
    public init?(direct cursor: inout JSONCursor) {
        var time = RequestTime.DirectMembers()
        var month: YearMonth?
        var types: [ActivityType]?
        var workouts: [WorkoutParams]?
        var stretches: [StretchParams]?
        var meditations: [MeditationParams]?
        let read = cursor.object { key, cursor in
            if let read = time.read(key, &cursor) { return read }
            if key.is("workouts"), workouts == nil {
                workouts = cursor.array(of: WorkoutParams.self)
                return workouts != nil
            }
            if key.is("stretches"), stretches == nil {
                stretches = cursor.array(of: StretchParams.self)
                return stretches != nil
            }
            if key.is("meditations"), meditations == nil {
                meditations = cursor.array(of: MeditationParams.self)
                return meditations != nil
            }
            if key.is("month"), month == nil {
                month = cursor.string().flatMap { try? YearMonth(parsing: $0) }
                return month != nil
            }
            if key.is("types"), types == nil {
                types = cursor.array({ $0.name(of: ActivityType.self) })
                return types != nil
            }
            return false
        }
        guard read, let time = time.value else { return nil }
        self.init(
            time: time, month: month, types: types, workouts: workouts ?? [], stretches: stretches ?? [],
            meditations: meditations ?? [])
    }
}

extension SystemPing.Params: JSONDirectDecodable {
    /// `{}` or `null` (params left out): the methods without params take nothing (members the standard decoder
    /// ignores are its to read).
    public init?(direct cursor: inout JSONCursor) {
        guard cursor.null() || cursor.object({ _, _ in false }) else { return nil }
        self.init()
    }
}
