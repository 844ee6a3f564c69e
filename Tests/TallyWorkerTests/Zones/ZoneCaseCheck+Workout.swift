import Foundation
import TallyCalendar
import TallyCore

extension ZoneCaseCheck {
    /// The clock's date of each workout of the case.
    var workoutDays: [Int] { zoneCase.instants.map { oracle.wallClock(at: $0).dayNumber } }

    /// Whether workout `index` is future: after `now`, or dated after today (Protocol/README.md, *Today and the
    /// future*). Future workouts are on no day.
    func isFuture(_ index: Int) -> Bool {
        zoneCase.instants[index] > zoneCase.now || workoutDays[index] > todayNumber
    }

    /// Checks one echoed workout: `id` is `w<index>`, and its `completed_at` names that workout's instant exactly,
    /// written by the offset rule.
    mutating func checkEchoedCompletion(_ id: Any?, _ completedAt: Any?, what: String) {
        guard let id = id as? String, let index = Int(id.dropFirst()), zoneCase.instants.indices.contains(index)
        else { return fail("\(what): unknown workout \(id ?? "-")") }
        let instant = zoneCase.instants[index]
        if seconds(completedAt) != instant { fail("\(what): \(id) completed_at \(completedAt ?? "-") moved") }
        if !oracle.isWrittenByTheRule(completedAt as? String ?? "", at: instant) {
            fail("\(what): \(id) completed_at \(completedAt ?? "-") is not written with the zone's offset rule")
        }
    }

    /// `workout.calendar` of the selected date's month (refused after the current month): the marked days are the
    /// clock's dates of the workouts that are not future.
    mutating func checkWorkoutCalendar() {
        let params = "\(zoneCase.timeFrame),\(zoneCase.workouts),\"month\":\"\(monthOfDate)\""
        let refusal = timeFrameRefusal ?? workoutRefusal ?? (monthOfDate > monthOfToday ? "params.month" : nil)
        guard let result = answer("workout.calendar", service: "tally.workout", params, expectedRefusal: refusal)
        else { return }
        let month = Int(monthOfDate.firstDay.dayNumber)...Int(monthOfDate.lastDay.dayNumber)
        let past = workoutDays.indices.filter { !isFuture($0) }.map { workoutDays[$0] }
        let marked = Set(past.filter(month.contains)).sorted().map(text)
        if result["marked_days"] as? [String] != marked { fail("workout.calendar: marked days \(marked) differ") }
        for (date, day) in result["days"] as? [String: [String: Any]] ?? [:] {
            for activity in day["activities"] as? [[String: Any]] ?? [] {
                let id = activity["source_id"] as? String
                checkEchoedCompletion(id, activity["completed_at"], what: "workout.calendar")
                if let index = id.flatMap({ Int($0.dropFirst()) }), workoutDays.indices.contains(index),
                    text(workoutDays[index]) != date
                {
                    fail("workout.calendar: \(id ?? "-") is on \(date), its clock says \(text(workoutDays[index]))")
                }
            }
        }
    }

    /// `workout.day` of the selected date (refused after today): exactly the workouts whose clock date it is and
    /// that are not future, in order of completion.
    mutating func checkWorkoutDay() {
        let params = "\(zoneCase.timeFrame),\(zoneCase.workouts),\"date\":\"\(zoneCase.date)\""
        let refusal = timeFrameRefusal ?? workoutRefusal ?? (zoneCase.dayNumber > todayNumber ? "params.date" : nil)
        guard let result = answer("workout.day", service: "tally.workout", params, expectedRefusal: refusal)
        else { return }
        let expected = zoneCase.instants.indices.filter { workoutDays[$0] == zoneCase.dayNumber && !isFuture($0) }
            .sorted { (zoneCase.instants[$0], $0) < (zoneCase.instants[$1], $1) }.map { "w\($0)" }
        let workouts = result["workouts"] as? [[String: Any]] ?? []
        if workouts.compactMap({ $0["id"] as? String }) != expected {
            fail("workout.day: workouts \(workouts.compactMap { $0["id"] as? String }), expected \(expected)")
        }
        for workout in workouts { checkEchoedCompletion(workout["id"], workout["completed_at"], what: "workout.day") }
    }

    /// `workout.detail` of each workout: its date is the clock's date of its completion, its echo exact; a future
    /// workout is refused.
    mutating func checkWorkoutDetail() {
        for index in zoneCase.instants.indices {
            let params = "\(zoneCase.timeFrame),\(zoneCase.workouts),\"workout_id\":\"w\(index)\""
            let refusal = timeFrameRefusal ?? workoutRefusal ?? (isFuture(index) ? "params.workout_id" : nil)
            guard let result = answer("workout.detail", service: "tally.workout", params, expectedRefusal: refusal)
            else { continue }
            if result["date"] as? String != text(workoutDays[index]) {
                fail(
                    "workout.detail: w\(index) on \(result["date"] ?? "-"), its clock says \(text(workoutDays[index]))")
            }
            let workout = result["workout"] as? [String: Any]
            checkEchoedCompletion(workout?["id"], workout?["completed_at"], what: "workout.detail")
        }
    }
}
