import Foundation
import Logging
import TallyCalendar
import TallyCore
import TallyJSONCoding
import TallyProtocol
import TallyWorker
import Testing

/// `workout.calendar`, `workout.day` and `workout.detail` through the dispatcher: whole requests with hand-computed
/// answers, and every bad input the spec names, checking the error code and `details.field`.
@Suite struct WorkoutMethodTests {
    static func dispatcher(maxListElements: Int = 20_000) -> RequestDispatcher {
        var registry = MethodRegistry()
        registry.registerComputedMethods(of: .workout)
        return registry.dispatcher(limits: RequestLimits(maxListElements: maxListElements))
    }

    static let standard = dispatcher()
    /// Lists of more than 2 elements are refused.
    static let tight = dispatcher(maxListElements: 2)

    static func respond(
        _ method: String, _ params: String, via dispatcher: RequestDispatcher = standard
    ) throws
        -> [String: Any]
    {
        let body = #"{"version":1,"id":"t","method":"\#(method)","params":{\#(params)}}"#
        let reply = dispatcher.respond(to: Array(body.utf8), service: "tally.workout", logger: Logger(label: "test"))
        return try #require(try JSONSerialization.jsonObject(with: Data(reply.bytes)) as? [String: Any])
    }

    static func result(_ method: String, _ params: String) throws -> [String: Any] {
        let response = try respond(method, params)
        return try #require(response["result"] as? [String: Any], "expected a result in \(response)")
    }

    // MARK: Request pieces

    static let utcToday = #""time_zone":"UTC","today":"2026-03-20""#

    static func workout(
        _ id: String = "w1", at completedAt: String = "2026-03-10T18:00:00Z", extra: String = "",
        sets: String = #"{"reps":5,"weight":100,"unit":"kg"}"#
    ) -> String {
        #"{"id":"\#(id)","name":"Legs","completed_at":"\#(completedAt)"\#(extra),"exercises":[{"name":"Squat","sets":[\#(sets)]}]}"#
    }

    // MARK: workout.calendar

    @Test func calendarWithAFixedOffsetAsTheActivityCalendarSendsIt() throws {
        // utc_offset_minutes −420 (PDT). 06:30 UTC on 06-15 is 23:30 on 06-14 local; now is 10:00 local on 06-15.
        let result = try Self.result(
            "workout.calendar",
            #"""
            "utc_offset_minutes":-420,"now":"2026-06-15T17:00:00Z",
            "workouts":[\#(Self.workout("123", at: "2026-06-15T06:30:00Z", extra: #","day_name":"Leg Day""#)),
                        \#(Self.workout("122", at: "2026-06-13T15:00:00Z"))],
            "stretches":[{"id":"7","completed_at":"2026-06-14T08:00:00-07:00","regions":["hips","hamstrings"],"duration_seconds":600}],
            "meditations":[{"id":"9","completed_at":"2026-06-14T13:00:00Z","duration_seconds":300}]
            """#)
        #expect(result["month"] as? String == "2026-06")
        #expect(result["start_date"] as? String == "2026-06-01")
        #expect(result["end_date"] as? String == "2026-06-30")
        #expect(result["types"] as? [String] == ["workout", "stretch", "meditation"])
        #expect(result["marked_days"] as? [String] == ["2026-06-13", "2026-06-14"])
        let days = try #require(result["days"] as? [String: [String: Any]])
        #expect(days.keys.sorted() == ["2026-06-13", "2026-06-14"])
        let activities = try #require(days["2026-06-14"]?["activities"] as? [[String: Any]])
        // In local time: the meditation at 06:00 (13:00 UTC), the stretch at 08:00, the workout at 23:30.
        #expect(activities.map { $0["id"] as? String } == ["meditation-9", "stretch-7", "workout-123"])
        #expect(
            activities.map { $0["completed_at"] as? String } == [
                "2026-06-14T06:00:00-07:00", "2026-06-14T08:00:00-07:00", "2026-06-14T23:30:00-07:00",
            ])
        let workoutCard = try #require(activities[2]["summary"] as? [String: Any])
        #expect(workoutCard["day_name"] as? String == "Leg Day")
        #expect(workoutCard["name"] as? String == "Legs")
        #expect(workoutCard["set_count"] as? Int == 1)
        #expect(workoutCard["exercise_count"] as? Int == 1)
        #expect(activities[2]["source_id"] as? String == "123")
        let stretchCard = try #require(activities[1]["summary"] as? [String: Any])
        #expect(stretchCard["regions"] as? [String] == ["hips", "hamstrings"])
        #expect(stretchCard["duration_seconds"] as? Int == 600)
        #expect(stretchCard["day_name"] == nil)
        // Workouts on 06-13 and 06-14, none yet today (06-15): a 2-day streak from 06-13.
        let streak = try #require(result["current_streak"] as? [String: Any])
        #expect(streak["days"] as? Int == 2)
        #expect(streak["start_date"] as? String == "2026-06-13")
        #expect(streak["end_date"] as? String == "2026-06-14")
        #expect(streak["includes_today"] as? Bool == false)
        #expect(result["has_earlier"] as? Bool == false)
        #expect(result["has_later"] as? Bool == false)
        #expect(result["is_empty"] as? Bool == false)
    }

    @Test func calendarFilteredToMeditationsOfAnotherMonth() throws {
        let result = try Self.result(
            "workout.calendar",
            #"""
            \#(Self.utcToday),"month":"2026-02","types":["meditation","meditation"],
            "workouts":[\#(Self.workout("w", at: "2026-02-10T10:00:00Z"))],
            "meditations":[{"id":"m","completed_at":"2026-01-05T10:00:00Z","duration_seconds":300}]
            """#)
        #expect(result["types"] as? [String] == ["meditation"])
        #expect(result["is_empty"] as? Bool == true)
        #expect((result["days"] as? [String: Any])?.isEmpty == true)
        #expect(result["marked_days"] as? [String] == [])
        #expect(result["has_earlier"] as? Bool == true)  // the January meditation
        #expect(result["has_later"] as? Bool == true)  // March is the current month
        // The streak counts workouts whatever the filter: none on 03-19 or 03-20.
        let streak = try #require(result["current_streak"] as? [String: Any])
        #expect(streak["days"] as? Int == 0)
        #expect(streak["start_date"] is NSNull)
        #expect(streak["end_date"] is NSNull)
    }

    // MARK: workout.day

    @Test func dayInPoundsWithMixedUnitsAndBodyweight() throws {
        let result = try Self.result(
            "workout.day",
            #"""
            \#(Self.utcToday),"date":"2026-03-10","unit":"lb",
            "workouts":[{"id":"mixed","name":"Upper A","completed_at":"2026-03-10T18:00:00Z","template_id":"upper",
              "exercises":[
                {"name":"Bench Press","sets":[{"reps":10,"weight":60,"unit":"kg"},{"reps":8,"weight":70,"unit":"kg"},{"reps":6,"weight":80,"unit":"kg"}]},
                {"name":"Dumbbell Row","sets":[{"reps":12,"weight":50,"unit":"lb"},{"reps":10,"weight":55,"unit":"lb"}]},
                {"name":"Pull-up","sets":[{"reps":10,"weight":0,"unit":"kg"},{"reps":8,"weight":0,"unit":"kg"},{"reps":5,"weight":25,"unit":"lb"}]}]},
              \#(Self.workout("other", at: "2026-03-01T10:00:00Z", extra: #","template_id":"upper""#))]
            """#)
        #expect(result["unit"] as? String == "lb")
        #expect(result["as_of"] as? String == "2026-03-20")
        #expect(result["template_usage"] == nil)  // "Logged N times" is the workout's times_logged
        let workouts = try #require(result["workouts"] as? [[String: Any]])
        #expect(workouts.count == 1)
        let workout = workouts[0]
        // 1640 kg = 3615.5811 lb; + 1150 lb + 125 lb = 4890.5811 lb.
        #expect(workout["total_volume"] as? Double == 4890.58)
        #expect(workout["set_count"] as? Int == 8)
        #expect(workout["bodyweight_set_count"] as? Int == 2)
        #expect(workout["times_logged"] as? Int == 2)
        #expect(workout["plan"] is NSNull)
        #expect(workout["day_name"] as? String == "Upper A")
        let exercises = try #require(workout["exercises"] as? [[String: Any]])
        #expect(exercises.map { $0["volume"] as? Double } == [3615.58, 1150, 125])
        #expect(exercises[0]["weights"] as? [Double] == [132.28, 154.32, 176.37])
        #expect(exercises[2]["weights"] as? [Double] == [0, 25])
        #expect(exercises[2]["bodyweight_set_count"] as? Int == 2)
    }

    @Test func dayInKilogramsIsTheDefault() throws {
        let result = try Self.result(
            "workout.day",
            #"""
            \#(Self.utcToday),"date":"2026-03-10",
            "workouts":[\#(Self.workout(sets: #"{"reps":10,"weight":60,"unit":"kg"},{"reps":5,"weight":100,"unit":"lb"}"#))]
            """#)
        // 600 kg + 500 lb × 0.45359237 = 600 + 226.796185 = 826.796185 kg.
        let workout = try #require((result["workouts"] as? [[String: Any]])?.first)
        #expect(result["unit"] as? String == "kg")
        #expect(workout["total_volume"] as? Double == 826.8)
        // 100 lb = 45.359237 kg.
        #expect((workout["exercises"] as? [[String: Any]])?.first?["weights"] as? [Double] == [45.36, 60])
        #expect(workout["template_id"] is NSNull)
        #expect(workout["times_logged"] is NSNull)
    }

    @Test func weightsAreDistinctAsShownAndNeverNegativeZero() throws {
        let response = try Self.respond(
            "workout.day",
            #"""
            \#(Self.utcToday),"date":"2026-03-10",
            "workouts":[\#(Self.workout(sets: #"{"reps":5,"weight":100,"unit":"lb"},{"reps":5,"weight":45.359237,"unit":"kg"},{"reps":8,"weight":-0,"unit":"kg"}"#))]
            """#)
        let workout = try #require(((response["result"] as? [String: Any])?["workouts"] as? [[String: Any]])?.first)
        // 100 lb = 45.359237 kg: one weight as shown. 500 lb + 5 × 45.359237 kg = 226.796185 + 226.796185 kg.
        let exercise = try #require((workout["exercises"] as? [[String: Any]])?.first)
        #expect(exercise["weights"] as? [Double] == [0, 45.36])
        #expect(exercise["volume"] as? Double == 453.59)
        #expect(exercise["bodyweight_set_count"] as? Int == 1)
        let body =
            #"{"version":1,"id":"t","method":"workout.day","params":{\#(Self.utcToday),"date":"2026-03-10","workouts":[\#(Self.workout(sets: #"{"reps":8,"weight":-0,"unit":"kg"}"#))]}}"#
        let reply = Self.standard.respond(to: Array(body.utf8), service: "tally.workout", logger: Logger(label: "test"))
        let text = String(decoding: reply.bytes, as: UTF8.self)
        #expect(text.contains(#""weights":[0]"#))
        for numberStart in [":-0", "[-0", ",-0"] { #expect(!text.contains(numberStart)) }
    }

    @Test func planWeekTwoOnTheSpringForwardSunday() throws {
        let plan = #","plan":{"id":"ppl","name":"PPL","start_date":"2026-03-01","weeks":8}"#
        let result = try Self.result(
            "workout.day",
            #"""
            "time_zone":"America/New_York","now":"2026-03-08T20:00:00-04:00","date":"2026-03-08",
            "workouts":[\#(Self.workout("w", at: "2026-03-08T09:00:00-04:00", extra: plan))]
            """#)
        let workout = try #require((result["workouts"] as? [[String: Any]])?.first)
        let progress = try #require(workout["plan"] as? [String: Any])
        #expect(progress["week"] as? Int == 2)
        #expect(progress["weeks"] as? Int == 8)
        #expect(progress["start_date"] as? String == "2026-03-01")
        #expect(workout["completed_at"] as? String == "2026-03-08T09:00:00-04:00")
    }

    // MARK: workout.detail

    @Test func detailFindsAWorkoutByIDOnItsLocalDate() throws {
        // 06:30Z on 06-15 is 23:30 PDT on 06-14: the workout's day is 06-14 in Los Angeles, week 2 of the plan that
        // started on 06-07. Its template was used twice up to now; the third use, tomorrow, is future.
        let plan = #","template_id":"push","plan":{"id":"p","start_date":"2026-06-07","weeks":4}"#
        let result = try Self.result(
            "workout.detail",
            #"""
            "time_zone":"America/Los_Angeles","now":"2026-06-15T17:00:00Z","workout_id":"late","unit":"lb",
            "workouts":[\#(Self.workout("early", at: "2026-06-10T15:00:00Z", extra: #","template_id":"push""#)),
                        \#(Self.workout("late", at: "2026-06-15T06:30:00Z", extra: plan)),
                        \#(Self.workout("tomorrow", at: "2026-06-16T15:00:00Z", extra: #","template_id":"push""#))]
            """#)
        #expect(result["date"] as? String == "2026-06-14")
        #expect(result["as_of"] as? String == "2026-06-15")
        #expect(result["unit"] as? String == "lb")
        #expect(result["future_workouts_ignored"] as? Int == 1)
        let workout = try #require(result["workout"] as? [String: Any])
        #expect(workout["id"] as? String == "late")
        #expect(workout["completed_at"] as? String == "2026-06-14T23:30:00-07:00")
        #expect(workout["times_logged"] as? Int == 2)
        #expect((workout["plan"] as? [String: Any])?["week"] as? Int == 2)
        #expect(workout["total_volume"] as? Double == 1102.31)  // 5 × 100 kg = 500 kg = 1102.311 lb
    }

    /// A completion instant with milliseconds keeps them when written in the request's zone: the double nearest to
    /// `2004-01-10T13:37:04.580Z` (seconds since 1970 just above 2^30, where a double's step is coarsest for its
    /// size) lies a hair below it, and the writer once rounded that down to `.579`.
    @Test func millisecondsOfACompletionAreWrittenAsSent() throws {
        let sent = ["2004-01-10T13:37:04.580Z", "2004-01-10T16:23:17.580Z", "2004-01-10T09:41:07.001Z"]
        let day = #""time_zone":"UTC","today":"2004-01-20","date":"2004-01-10""#
        for completedAt in sent {
            let result = try Self.result("workout.day", #"\#(day),"workouts":[\#(Self.workout(at: completedAt))]"#)
            let workout = try #require((result["workouts"] as? [[String: Any]])?.first)
            #expect(workout["completed_at"] as? String == completedAt)
        }
        let berlin = try Self.result(
            "workout.day",
            #""time_zone":"Europe/Berlin","today":"2004-01-20","date":"2004-01-10","workouts":[\#(Self.workout(at: "2004-01-10T13:37:04.580Z"))]"#
        )
        let workout = try #require((berlin["workouts"] as? [[String: Any]])?.first)
        #expect(workout["completed_at"] as? String == "2004-01-10T14:37:04.580+01:00")
    }

    @Test func detailIsTheWorkoutTheDayListsForItsDate() throws {
        let history = WorkoutHistorySelectionTests.history
        let time = RequestTime(
            timeZone: try #require(ZoneName("Pacific/Kiritimati")), today: LocalDate(year: 2026, month: 3, day: 20)!)
        for workout in history {
            let detail = try WorkoutDetail.result(
                for: WorkoutDetail.Params(time: time, workoutID: workout.id, unit: .pound, workouts: history),
                limits: RequestLimits())
            let day = try WorkoutDay.result(
                for: WorkoutDay.Params(time: time, date: detail.date, unit: .pound, workouts: history),
                limits: RequestLimits())
            #expect(day.workouts.contains(detail.workout), "\(workout.id) on \(detail.date)")
        }
    }

    @Test func aCalendarActivitysSourceIDOpensItsWorkout() throws {
        let params =
            #""utc_offset_minutes":-420,"today":"2026-06-15","workouts":[\#(Self.workout("123", at: "2026-06-15T06:30:00Z"))]"#
        let calendar = try Self.result("workout.calendar", params)
        let day = try #require((calendar["days"] as? [String: [String: Any]])?.first)
        let activity = try #require((day.value["activities"] as? [[String: Any]])?.first)
        #expect(activity["id"] as? String == "workout-123")
        let sourceID = try #require(activity["source_id"] as? String)
        let detail = try Self.result("workout.detail", params + #","workout_id":"\#(sourceID)""#)
        #expect(detail["date"] as? String == day.key)
    }

    @Test(
        arguments: [
            // No such id: the id the client asked for comes back in details.value.
            ("\(utcToday),\"workout_id\":\"nope\",\"workouts\":[\(workout("w1"))]", "nope", nil),
            // The calendar's activity id is not a workout id.
            ("\(utcToday),\"workout_id\":\"workout-w1\",\"workouts\":[\(workout("w1"))]", "workout-w1", nil),
            ("\(utcToday),\"workout_id\":\"w1\"", "w1", nil),
            // A workout after today has not happened yet: asking for it is asking for the future.
            (
                "\(utcToday),\"workout_id\":\"w2\",\"workouts\":[\(workout("w1")),\(workout("w2", at: "2026-03-21T08:00:00Z"))]",
                "w2", "params.workouts[1].completed_at"
            ),
        ] as [(String, String, String?)])
    func detailOfAnUnknownOrFutureWorkoutNamesTheID(params: String, value: String, conflictsWith: String?) throws {
        let response = try Self.respond("workout.detail", params)
        let error = try #require(response["error"] as? [String: Any], "expected an error in \(response)")
        #expect(error["code"] as? String == "invalid_params")
        let details = try #require(error["details"] as? [String: Any])
        #expect(details["field"] as? String == "params.workout_id")
        #expect(details["value"] as? String == value)
        #expect(details["conflicts_with"] as? String == conflictsWith)
    }

    // MARK: Bad input

    @Test(
        arguments: [
            // Duplicate ids name both places (the conflict is checked separately below).
            (
                "workout.calendar", "\(utcToday),\"workouts\":[\(workout("a")),\(workout("a"))]",
                "invalid_params", "params.workouts[1].id"
            ),
            (
                "workout.day",
                "\(utcToday),\"date\":\"2026-03-10\",\"workouts\":[\(workout("x")),\(workout("y")),\(workout("x"))]",
                "invalid_params", "params.workouts[2].id"
            ),
            (
                "workout.calendar",
                "\(utcToday),\"stretches\":[{\"id\":\"s\",\"completed_at\":\"2026-03-01T10:00:00Z\",\"regions\":[],\"duration_seconds\":60},{\"id\":\"s\",\"completed_at\":\"2026-03-02T10:00:00Z\",\"regions\":[],\"duration_seconds\":60}]",
                "invalid_params", "params.stretches[1].id"
            ),
            (
                "workout.calendar",
                "\(utcToday),\"meditations\":[{\"id\":\"m\",\"completed_at\":\"2026-03-01T10:00:00Z\",\"duration_seconds\":60},{\"id\":\"m\",\"completed_at\":\"2026-03-02T10:00:00Z\",\"duration_seconds\":60}]",
                "invalid_params", "params.meditations[1].id"
            ),
            // Sets.
            (
                "workout.day",
                "\(utcToday),\"date\":\"2026-03-10\",\"workouts\":[\(workout(sets: "{\"reps\":5,\"weight\":20,\"unit\":\"kg\"},{\"reps\":-1,\"weight\":20,\"unit\":\"kg\"}"))]",
                "invalid_params", "params.workouts[0].exercises[0].sets[1].reps"
            ),
            (
                "workout.day",
                "\(utcToday),\"date\":\"2026-03-10\",\"workouts\":[\(workout(sets: "{\"reps\":5,\"weight\":-2.5,\"unit\":\"kg\"}"))]",
                "invalid_params", "params.workouts[0].exercises[0].sets[0].weight"
            ),
            (
                "workout.day",
                "\(utcToday),\"date\":\"2026-03-10\",\"workouts\":[\(workout(sets: "{\"reps\":5,\"weight\":20,\"unit\":\"lbs\"}"))]",
                "invalid_params", "params.workouts[0].exercises[0].sets[0].unit"
            ),
            (
                "workout.day",
                "\(utcToday),\"date\":\"2026-03-10\",\"workouts\":[\(workout(sets: "{\"reps\":5.5,\"weight\":20,\"unit\":\"kg\"}"))]",
                "invalid_params", "params.workouts[0].exercises[0].sets[0].reps"
            ),
            (
                "workout.day",
                "\(utcToday),\"date\":\"2026-03-10\",\"workouts\":[\(workout(sets: "{\"reps\":5,\"weight\":10001,\"unit\":\"kg\"}"))]",
                "invalid_params", "params.workouts[0].exercises[0].sets[0].weight"
            ),
            (
                "workout.day",
                "\(utcToday),\"date\":\"2026-03-10\",\"workouts\":[\(workout(sets: "{\"reps\":5,\"weight\":1e999,\"unit\":\"kg\"}"))]",
                "invalid_params", "params.workouts[0].exercises[0].sets[0].weight"
            ),
            (
                "workout.day",
                "\(utcToday),\"date\":\"2026-03-10\",\"workouts\":[\(workout(sets: "{\"reps\":5,\"weight\":20}"))]",
                "invalid_params", "params.workouts[0].exercises[0].sets[0].unit"
            ),
            // Units and types.
            (
                "workout.day", "\(utcToday),\"date\":\"2026-03-10\",\"unit\":\"stone\",\"workouts\":[]",
                "invalid_params", "params.unit"
            ),
            ("workout.calendar", "\(utcToday),\"types\":[\"workout\",\"yoga\"]", "invalid_params", "params.types[1]"),
            ("workout.calendar", "\(utcToday),\"types\":[]", "invalid_params", "params.types"),
            // Plans.
            (
                "workout.day",
                "\(utcToday),\"date\":\"2026-03-10\",\"workouts\":[\(workout(extra: ",\"plan\":{\"start_date\":\"2026-03-01\",\"weeks\":0}"))]",
                "invalid_params", "params.workouts[0].plan.weeks"
            ),
            (
                "workout.day",
                "\(utcToday),\"date\":\"2026-03-10\",\"workouts\":[\(workout(extra: ",\"plan\":{\"start_date\":\"2026-02-30\",\"weeks\":8}"))]",
                "invalid_params", "params.workouts[0].plan.start_date"
            ),
            (
                "workout.day",
                "\(utcToday),\"date\":\"2026-03-10\",\"workouts\":[\(workout(extra: ",\"plan\":{\"weeks\":8}"))]",
                "invalid_params", "params.workouts[0].plan.start_date"
            ),
            // Instants and dates.
            (
                "workout.calendar", "\(utcToday),\"workouts\":[\(workout(at: "2026-03-10T18:00:00"))]",
                "invalid_params", "params.workouts[0].completed_at"
            ),
            (
                "workout.calendar", "\(utcToday),\"workouts\":[\(workout(at: "2026-02-30T18:00:00Z"))]",
                "invalid_params", "params.workouts[0].completed_at"
            ),
            (
                "workout.calendar",
                "\(utcToday),\"meditations\":[{\"id\":\"m\",\"completed_at\":\"2026-03-01 10:00\",\"duration_seconds\":60}]",
                "invalid_params", "params.meditations[0].completed_at"
            ),
            ("workout.day", "\(utcToday),\"date\":\"2026-02-29\",\"workouts\":[]", "invalid_params", "params.date"),
            ("workout.day", "\(utcToday),\"workouts\":[]", "invalid_params", "params.date"),
            ("workout.calendar", "\(utcToday),\"month\":\"2026-13\"", "invalid_params", "params.month"),
            ("workout.calendar", "\"time_zone\":\"UTC\",\"today\":\"2026-02-30\"", "invalid_params", "params.today"),
            // Zones.
            (
                "workout.calendar", "\"time_zone\":\"Mars/Olympus_Mons\",\"today\":\"2026-03-20\"", "invalid_params",
                "params.time_zone"
            ),
            (
                "workout.calendar", "\"utc_offset_minutes\":1200,\"today\":\"2026-03-20\"", "invalid_params",
                "params.utc_offset_minutes"
            ),
            ("workout.calendar", "\"today\":\"2026-03-20\"", "invalid_params", "params.time_zone"),
            ("workout.detail", "\(utcToday),\"workouts\":[]", "invalid_params", "params.workout_id"),
            ("workout.detail", "\(utcToday),\"workout_id\":\"\"", "invalid_params", "params.workout_id"),
            (
                "workout.detail", "\(utcToday),\"workout_id\":\"w\",\"unit\":\"st\",\"workouts\":[]", "invalid_params",
                "params.unit"
            ),
            // Other fields.
            (
                "workout.calendar",
                "\(utcToday),\"workouts\":[{\"id\":\"w\",\"completed_at\":\"2026-03-10T18:00:00Z\",\"exercises\":[]}]",
                "invalid_params", "params.workouts[0].name"
            ),
            (
                "workout.calendar", "\(utcToday),\"workouts\":[\(workout(""))]", "invalid_params",
                "params.workouts[0].id"
            ),
            (
                "workout.calendar",
                "\(utcToday),\"stretches\":[{\"id\":\"s\",\"completed_at\":\"2026-03-01T10:00:00Z\",\"regions\":[\"hips\"],\"duration_seconds\":-5}]",
                "invalid_params", "params.stretches[0].duration_seconds"
            ),
            (
                "workout.calendar",
                "\(utcToday),\"stretches\":[{\"id\":\"s\",\"completed_at\":\"2026-03-01T10:00:00Z\",\"regions\":[\"hips\",\"\"],\"duration_seconds\":60}]",
                "invalid_params", "params.stretches[0].regions[1]"
            ),
            (
                "workout.calendar",
                "\(utcToday),\"meditations\":[{\"id\":\"m\",\"completed_at\":\"2026-03-01T10:00:00Z\",\"duration_seconds\":86401}]",
                "invalid_params", "params.meditations[0].duration_seconds"
            ),
        ] as [(String, String, String, String)])
    func badInputGetsAPreciseError(method: String, params: String, code: String, field: String) throws {
        let response = try Self.respond(method, params)
        let error = try #require(response["error"] as? [String: Any], "expected an error in \(response)")
        #expect(error["code"] as? String == code)
        #expect((error["details"] as? [String: Any])?["field"] as? String == field)
    }

    @Test func duplicateWorkoutIDsNameBothPlacesAndTheID() throws {
        let response = try Self.respond(
            "workout.calendar",
            "\(Self.utcToday),\"workouts\":[\(Self.workout("a")),\(Self.workout("b")),\(Self.workout("a"))]")
        let details = try #require((response["error"] as? [String: Any])?["details"] as? [String: Any])
        #expect(details["field"] as? String == "params.workouts[2].id")
        #expect(details["conflicts_with"] as? String == "params.workouts[0].id")
        #expect(details["value"] as? String == "a")
    }

    @Test func duplicateSessionIDsNameTheID() throws {
        let stretch = #"{"id":"s-1","completed_at":"2026-03-01T10:00:00Z","regions":[],"duration_seconds":60}"#
        let response = try Self.respond(
            "workout.calendar", "\(Self.utcToday),\"stretches\":[\(stretch),\(stretch)]")
        let details = try #require((response["error"] as? [String: Any])?["details"] as? [String: Any])
        #expect(details["field"] as? String == "params.stretches[1].id")
        #expect(details["conflicts_with"] as? String == "params.stretches[0].id")
        #expect(details["value"] as? String == "s-1")
    }

    @Test func aMissingSetMemberIsRequired() throws {
        let response = try Self.respond(
            "workout.calendar", "\(Self.utcToday),\"workouts\":[\(Self.workout(sets: #"{"weight":20,"unit":"kg"}"#))]")
        let details = try #require((response["error"] as? [String: Any])?["details"] as? [String: Any])
        #expect(details["field"] as? String == "params.workouts[0].exercises[0].sets[0].reps")
        #expect(details["problem"] as? String == "is required")
    }

    @Test(
        arguments: [
            (
                "workout.calendar", "\(utcToday),\"workouts\":[\(workout("a")),\(workout("b")),\(workout("c"))]",
                "params.workouts"
            ),
            (
                "workout.day",
                "\(utcToday),\"date\":\"2026-03-10\",\"workouts\":[\(workout(sets: "{\"reps\":1,\"weight\":1,\"unit\":\"kg\"},{\"reps\":1,\"weight\":1,\"unit\":\"kg\"},{\"reps\":1,\"weight\":1,\"unit\":\"kg\"}"))]",
                "params.workouts[0].exercises[0].sets"
            ),
            (
                "workout.calendar",
                "\(utcToday),\"workouts\":[{\"id\":\"w\",\"name\":\"n\",\"completed_at\":\"2026-03-10T18:00:00Z\",\"exercises\":[{\"name\":\"a\",\"sets\":[]},{\"name\":\"b\",\"sets\":[]},{\"name\":\"c\",\"sets\":[]}]}]",
                "params.workouts[0].exercises"
            ),
            (
                "workout.calendar",
                "\(utcToday),\"stretches\":[{\"id\":\"s\",\"completed_at\":\"2026-03-01T10:00:00Z\",\"regions\":[\"a\",\"b\",\"c\"],\"duration_seconds\":60}]",
                "params.stretches[0].regions"
            ),
            (
                "workout.calendar",
                "\(utcToday),\"meditations\":[{\"id\":\"1\",\"completed_at\":\"2026-03-01T10:00:00Z\",\"duration_seconds\":60},{\"id\":\"2\",\"completed_at\":\"2026-03-01T10:00:00Z\",\"duration_seconds\":60},{\"id\":\"3\",\"completed_at\":\"2026-03-01T10:00:00Z\",\"duration_seconds\":60}]",
                "params.meditations"
            ),
            ("workout.calendar", "\(utcToday),\"types\":[\"workout\",\"stretch\",\"meditation\"]", "params.types"),
        ] as [(String, String, String)])
    func listsOverTheLimitAreTooLarge(method: String, params: String, field: String) throws {
        let response = try Self.respond(method, params, via: Self.tight)
        let error = try #require(response["error"] as? [String: Any], "expected an error in \(response)")
        #expect(error["code"] as? String == "payload_too_large")
        let details = try #require(error["details"] as? [String: Any])
        #expect(details["field"] as? String == field)
        #expect(details["limit"] as? Int == 2)
    }
}

/// `workout.day` and `workout.calendar` convert only the workouts of their day or month, and take the rest of the
/// history from the raw params (template counts, dates); the answers must be the ones the whole converted
/// history gives, for every date and month, in zones far east and far west of UTC.
@Suite struct WorkoutHistorySelectionTests {
    /// Workouts every 7 hours for 12 days from 2026-03-01T00:00Z, templates and plans on some, at mixed offsets.
    static let history: [WorkoutParams] = (0..<41).map { index in
        let instant = Date(timeIntervalSince1970: 1_772_323_200 + Double(index) * 7 * 3600)
        let sets = (0...(index % 3)).map { SetParams(reps: 5 + $0, weight: Double(index % 4) * 10, unit: .kilogram) }
        return WorkoutParams(
            id: "w\(index)", name: "Workout \(index)", completedAt: Timestamp(instant, offset: (index % 5 - 2) * 3600),
            templateID: index % 3 == 0 ? "t\(index % 2)" : nil, dayName: index % 4 == 0 ? "Day \(index)" : nil,
            plan: index % 6 == 0 ? PlanParams(startDate: LocalDate(year: 2026, month: 2, day: 27)!, weeks: 2) : nil,
            exercises: [ExerciseParams(name: "Squat", sets: sets), ExerciseParams(name: "Row", sets: sets)])
    }

    /// Today well after the history, today in its middle, and a `now` in its middle (instant precision).
    static let references: [RequestTime.Reference] = [
        .today(LocalDate(year: 2026, month: 3, day: 20)!), .today(LocalDate(year: 2026, month: 3, day: 7)!),
        .now(Timestamp(Date(timeIntervalSince1970: 1_772_884_800))),  // 2026-03-07T12:00:00Z
    ]

    @Test(arguments: ["Pacific/Kiritimati", "Pacific/Pago_Pago", "America/Los_Angeles", "Europe/Berlin"])
    func picksTheSameWorkoutsAsTheWholeHistory(zone: String) throws {
        let limits = RequestLimits(maxBodyBytes: 1 << 20, maxListElements: 1000)
        let zoneName = try #require(ZoneName(zone))
        var nonEmptyDays = 0
        var refusedDays = 0
        for reference in Self.references {
            for offset in -1...13 {
                let date = LocalDate(year: 2026, month: 3, day: 1)!.adding(days: offset)
                let params = WorkoutDay.Params(
                    time: RequestTime(zone: .named(zoneName), reference: reference), date: date,
                    workouts: Self.history)
                let calendar = params.time.calendar
                let asOf = params.time.referenceDay
                guard date <= asOf.today else {
                    #expect(throws: TallyError.self, "\(date) in \(zone) is after today") {
                        try WorkoutDay.result(for: params, limits: limits)
                    }
                    refusedDays += 1
                    continue
                }
                try WorkoutParams.check(Self.history, at: .params + "workouts", limits: limits)
                let everything = Self.history
                let expected = WorkoutDay.Result(
                    WorkoutDayDetail(
                        workouts: everything, date: date, unit: .kilogram, calendar: calendar, reference: asOf),
                    asOf: asOf.today,
                    futureWorkoutsIgnored: everything.count { asOf.isFuture($0.completedAt.instant, in: calendar) },
                    calendar: calendar)
                let answer = try WorkoutDay.result(for: params, limits: limits)
                #expect(answer == expected, "\(date) in \(zone) as of \(reference)")
                if !answer.workouts.isEmpty { nonEmptyDays += 1 }
            }
        }
        #expect(nonEmptyDays >= 20, "the window covers the history")
        #expect(refusedDays >= 12, "days after today are asked for")
    }

    static let stretches = (0..<9).map { index in
        StretchParams(
            id: "s\(index)",
            completedAt: Timestamp(Date(timeIntervalSince1970: 1_769_000_000 + Double(index) * 400_000)),
            regions: ["hips"], durationSeconds: 300)
    }
    static let meditations = (0..<7).map { index in
        MeditationParams(
            id: "m\(index)",
            completedAt: Timestamp(Date(timeIntervalSince1970: 1_773_000_000 + Double(index) * 90_000)),
            durationSeconds: 600)
    }

    @Test(arguments: ["Pacific/Kiritimati", "Pacific/Pago_Pago", "Europe/Berlin"])
    func calendarIsTheOneTheWholeHistoryGives(zone: String) throws {
        let limits = RequestLimits(maxBodyBytes: 1 << 20, maxListElements: 1000)
        let zoneName = try #require(ZoneName(zone))
        let filters: [[ActivityType]?] = [nil, [.workout], [.stretch], [.meditation, .stretch], [.meditation]]
        let noonOn8March = RequestTime.Reference.now(Timestamp(Date(timeIntervalSince1970: 1_772_971_200)))
        var futureSeen = 0
        for (month, reference) in [
            ("2026-01", RequestTime.Reference.today(try LocalDate(parsing: "2026-03-20"))),
            ("2026-02", .today(try LocalDate(parsing: "2026-03-05"))),
            ("2026-03", .today(try LocalDate(parsing: "2026-03-08"))),
            ("2026-03", noonOn8March), ("2025-12", .today(try LocalDate(parsing: "2026-01-02"))),
        ] {
            for types in filters {
                let params = WorkoutCalendar.Params(
                    time: RequestTime(zone: .named(zoneName), reference: reference),
                    month: try YearMonth(parsing: month), types: types, workouts: Self.history,
                    stretches: Self.stretches, meditations: Self.meditations)
                let calendar = params.time.calendar
                let asOf = params.time.referenceDay
                try WorkoutParams.check(Self.history, at: .params + "workouts", limits: limits)
                try StretchParams.check(Self.stretches, at: .params + "stretches", limits: limits)
                try MeditationParams.check(Self.meditations, at: .params + "meditations", limits: limits)
                let timeline = ActivityTimeline(
                    workouts: Self.history, stretches: Self.stretches, meditations: Self.meditations,
                    calendar: calendar, reference: asOf)
                let shown = try params.shownTypes(limits: limits)
                let expected = WorkoutCalendar.Result(
                    ActivityMonth(
                        timeline: timeline, month: try YearMonth(parsing: month), types: Set(shown), today: asOf.today),
                    types: shown, streak: WorkoutStreak(timeline: timeline, today: asOf.today), asOf: asOf.today,
                    futureActivitiesIgnored: timeline.futureEntriesIgnored, calendar: calendar)
                #expect(
                    try WorkoutCalendar.result(for: params, limits: limits) == expected,
                    "\(month) \(types ?? []) in \(zone)")
                futureSeen += timeline.futureEntriesIgnored
            }
        }
        #expect(futureSeen > 0, "some cases hold future activities")
    }
}
