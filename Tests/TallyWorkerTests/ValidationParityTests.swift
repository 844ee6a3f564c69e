import PropertyBased
import TallyCalendar
import TallyCore
import TallyJSONCoding
import TallyLoad
import TallyProtocol
import TallyTesting
@testable import TallyWorker
import Testing

/// A workout's parts are checked twice over: `isValid` says whether a part is valid without building a field path,
/// and the naming check (`check(at:)`) runs only on a part it refuses. So the two must give the same verdict on
/// every part: were `isValid` to pass what the naming check refuses, a bad set would go unreported.
@Suite struct ValidationParityTests {
    static let today = LocalDate(year: 2026, month: 11, day: 23)!
    static let calendar = ZoneCalendar(timeZone: ZoneName("Europe/Berlin")!.timeZone)

    /// Texts at and beyond the length bounds (ids 1...128, names 1...200 characters), in bytes and in characters.
    static let texts: [String] = [
        "", "a", String(repeating: "x", count: 128), String(repeating: "x", count: 129),
        String(repeating: "n", count: 200), String(repeating: "n", count: 201),
        // 150 characters in 300 bytes, 100 flags in 800 bytes: within 200 characters, beyond 200 bytes.
        String(repeating: "é", count: 150), String(repeating: "🇩🇪", count: 100), String(repeating: "🇩🇪", count: 201),
        // A combining mark after each letter: 200 characters in 400 scalars.
        String(repeating: "e\u{301}", count: 200), String(repeating: "e\u{301}", count: 201),
    ]
    static let reps = [-1, 0, 1, 10_000, 10_001, Int.min, Int.max]
    static let weights = [-0.0, -0.5, 0, 0.25, 10_000, 10_000.5, -.infinity, .infinity, .nan]
    static let weeks = [0, 1, 520, 521]

    /// Whether the naming check passes.
    static func passes(_ check: () throws(TallyError) -> Void) -> Bool {
        do {
            try check()
            return true
        } catch {
            return false
        }
    }

    /// One workout of the generator's, with one field changed to an edge value.
    static func changed(_ workout: WorkoutParams, change: Int, pick: Int) -> WorkoutParams {
        var workout = workout
        let text = texts[pick % texts.count]
        switch change % 9 {
        case 0: workout.id = text
        case 1: workout.name = text
        case 2: workout.templateID = text
        case 3: workout.dayName = text
        case 4:
            workout.plan = PlanParams(
                id: pick % 3 == 0 ? nil : text, name: pick % 2 == 0 ? nil : texts[(pick / 3) % texts.count],
                startDate: today, weeks: weeks[pick % weeks.count])
        case 5 where !workout.exercises.isEmpty:
            workout.exercises[pick % workout.exercises.count].name = text
        case 6 where !workout.exercises.isEmpty:
            let exercise = pick % workout.exercises.count
            if !workout.exercises[exercise].sets.isEmpty {
                let set = pick % workout.exercises[exercise].sets.count
                workout.exercises[exercise].sets[set].reps = reps[pick % reps.count]
            }
        case 7 where !workout.exercises.isEmpty:
            let exercise = pick % workout.exercises.count
            if !workout.exercises[exercise].sets.isEmpty {
                let set = pick % workout.exercises[exercise].sets.count
                workout.exercises[exercise].sets[set].weight = weights[pick % weights.count]
            }
        default:
            // Lists over a small limit (3): a workout's exercises or an exercise's sets.
            if pick % 2 == 0, let first = workout.exercises.first {
                workout.exercises += Array(repeating: first, count: pick % 3)
            } else if !workout.exercises.isEmpty {
                let sets = workout.exercises[0].sets
                workout.exercises[0].sets += Array(
                    repeating: sets.first ?? SetParams(reps: 1, weight: 1, unit: .pound), count: pick % 3)
            }
        }
        return workout
    }

    /// Each case computes on a thread of its own (`onOwnThread`), off the cooperative pool the socket suites need.
    @Test func theQuickVerdictIsTheNamingChecksOnEveryPart() async {
        await propertyCheck(count: 400, input: Gen.int(in: 1...1_000_000), Gen.int(in: 0...8), Gen.int(in: 0...10_000))
        { seed, change, pick in
            let problems =
                (try? await onOwnThread { () -> [String] in
                    var training = WorkoutDataGenerator(seed: UInt64(seed))
                    let workouts = training.workouts(endingOn: Self.today, size: .month, zone: Self.calendar)
                    guard let workout = workouts.first else { return [] }
                    let limits = RequestLimits(maxListElements: pick % 2 == 0 ? 3 : 20_000)
                    return Self.disagreements(in: Self.changed(workout, change: change, pick: pick), limits: limits)
                }) ?? ["the case did not run"]
            #expect(problems.isEmpty, "change \(change), pick \(pick): \(problems)")
        }
    }

    /// The parts of `workout` on which the quick verdict and the naming check differ.
    static func disagreements(in workout: WorkoutParams, limits: RequestLimits) -> [String] {
        var found: [String] = []
        if workout.isValid(limits: limits)
            != passes({ () throws(TallyError) in try workout.check(at: .params, limits: limits) })
        {
            found.append("the workout")
        }
        for (index, exercise) in workout.exercises.enumerated() {
            if ExerciseParams.isValid(exercise, limits: limits)
                != passes({ () throws(TallyError) in try exercise.check(at: .params, limits: limits) })
            {
                found.append("exercise \(index)")
            }
            for (number, set) in exercise.sets.enumerated()
            where set.isValid != passes({ () throws(TallyError) in try set.check(at: .params) }) {
                found.append("exercise \(index), set \(number)")
            }
        }
        if let plan = workout.plan, plan.isValid != passes({ () throws(TallyError) in try plan.check(at: .params) }) {
            found.append("the plan")
        }
        return found
    }

    /// And a list of workouts refuses a bad part with the naming check's own error, whichever part it is.
    @Test func aListNamesTheFieldThatIsWrong() throws {
        var training = WorkoutDataGenerator(seed: 7)
        var workouts = training.workouts(endingOn: Self.today, size: .month, zone: Self.calendar)
        try #require(workouts.count > 3 && workouts[2].exercises.count > 1)
        workouts[2].exercises[1].sets[0].weight = 10_000.5
        #expect {
            try WorkoutParams.check(workouts, at: .params + "workouts", limits: RequestLimits())
        } throws: { error in
            (error as? TallyError)?.details?.field == "params.workouts[2].exercises[1].sets[0].weight"
        }
    }
}
