import Foundation
import TallyCalendar
import TallyCore
import TallyProtocol
import Testing

/// Builders for the workout tests: every value is written out, so each test reads as its own worked example.
enum WorkoutFixtures {
    static func instant(_ text: String) throws -> Instant { try RFC3339.parse(text).instant }

    static func timestamp(_ text: String) throws -> Timestamp { try Timestamp(parsing: text) }

    static func date(_ text: String) throws -> LocalDate { try LocalDate(parsing: text) }

    static func zone(_ identifier: String) throws -> ZoneCalendar { try #require(ZoneCalendar(identifier: identifier)) }

    static func kg(_ reps: Int, _ weight: Double) -> SetParams {
        SetParams(reps: reps, weight: weight, unit: .kilogram)
    }

    static func lb(_ reps: Int, _ weight: Double) -> SetParams { SetParams(reps: reps, weight: weight, unit: .pound) }

    static func workout(
        _ id: String, at completedAt: String, name: String = "Workout", template: String? = nil, dayName: String? = nil,
        plan: PlanParams? = nil,
        exercises: [ExerciseParams] = [ExerciseParams(name: "Squat", sets: [kg(5, 100)])]
    ) throws -> WorkoutParams {
        WorkoutParams(
            id: id, name: name, completedAt: try timestamp(completedAt), templateID: template, dayName: dayName,
            plan: plan,
            exercises: exercises)
    }

    static func stretch(
        _ id: String, at completedAt: String, regions: [String] = ["hamstrings"], seconds: Int = 600
    )
        throws
        -> StretchParams
    {
        StretchParams(id: id, completedAt: try timestamp(completedAt), regions: regions, durationSeconds: seconds)
    }

    static func meditation(_ id: String, at completedAt: String, seconds: Int = 600) throws -> MeditationParams {
        MeditationParams(id: id, completedAt: try timestamp(completedAt), durationSeconds: seconds)
    }

    /// A mixed-unit workout: bench press in kg, rows in lb, pull-ups mostly bodyweight with one weighted lb set.
    ///
    /// Bench 10×60 + 8×70 + 6×80 = 1640 kg; rows 12×50 + 10×55 = 1150 lb; pull-ups 10×0 + 8×0 + 5×25 = 125 lb.
    static func mixedWorkout(
        id: String = "mixed", at completedAt: String = "2026-03-10T18:00:00Z"
    ) throws
        -> WorkoutParams
    {
        try workout(
            id, at: completedAt, name: "Upper A",
            exercises: [
                ExerciseParams(name: "Bench Press", sets: [kg(10, 60), kg(8, 70), kg(6, 80)]),
                ExerciseParams(name: "Dumbbell Row", sets: [lb(12, 50), lb(10, 55)]),
                ExerciseParams(name: "Pull-up", sets: [kg(10, 0), kg(8, 0), lb(5, 25)]),
            ])
    }
}
