import Foundation
import TallyCalendar
import TallyCore
import TallyProtocol

/// Realistic training history: about five workouts a week from a handful of templates (six exercises of four
/// sets, mixed kg and lb, some bodyweight), an eight-week plan, plus stretches and meditations.
package struct WorkoutDataGenerator: Sendable {
    package var generator: SeededGenerator

    static let templates: [(name: String, exercises: [String])] = [
        (
            "Push",
            ["Bench press", "Overhead press", "Incline dumbbell press", "Dips", "Lateral raise", "Triceps pushdown"]
        ),
        ("Pull", ["Deadlift", "Pull-up", "Barbell row", "Face pull", "Biceps curl", "Hammer curl"]),
        ("Legs", ["Squat", "Romanian deadlift", "Leg press", "Lunge", "Leg curl", "Calf raise"]),
    ]

    package init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
    }

    /// Workouts over `size.days` ending `today`, completed in the evening of `zone`'s local day.
    package mutating func workouts(endingOn today: LocalDate, size: HistorySize, zone: ZoneCalendar) -> [WorkoutParams]
    {
        var workouts: [WorkoutParams] = []
        let planStart = today.adding(days: -40)
        for offset in stride(from: size.days - 1, through: 0, by: -1) {
            let date = today.adding(days: -offset)
            guard Int.random(in: 0..<7, using: &generator) < 5 else { continue }
            let template = Self.templates[workouts.count % Self.templates.count]
            let minute = Int.random(in: (17 * 60)...(21 * 60), using: &generator)
            let instant = zone.startOfDay(date).advanced(by: .seconds(minute * 60))
            let exercises = template.exercises.enumerated().map { index, name in
                let bodyweight = name == "Dips" || name == "Pull-up" || name == "Lunge"
                let unit: TallyProtocol.WeightUnit = index % 3 == 2 ? .pound : .kilogram
                let base = Double(Int.random(in: 8...40, using: &generator)) * 2.5
                return ExerciseParams(
                    name: name,
                    sets: (0..<4).map { set in
                        SetParams(
                            reps: Int.random(in: 5...12, using: &generator),
                            weight: bodyweight ? 0 : base + Double(set) * 2.5, unit: unit)
                    })
            }
            let inPlan = date >= planStart
            workouts.append(
                WorkoutParams(
                    id: "w\(workouts.count + 1)", name: template.name,
                    completedAt: Timestamp(instant, offset: zone.utcOffset(at: instant)),
                    templateID: "template-\(template.name.lowercased())", dayName: "\(template.name) day",
                    plan: inPlan
                        ? PlanParams(id: "plan-1", name: "8-week strength", startDate: planStart, weeks: 8) : nil,
                    exercises: exercises))
        }
        return workouts
    }

    /// Stretches (about three a week) and meditations (about two a week) over the same period.
    package mutating func sessions(
        endingOn today: LocalDate, size: HistorySize, zone: ZoneCalendar
    ) -> ([StretchParams], [MeditationParams]) {
        var stretches: [StretchParams] = []
        var meditations: [MeditationParams] = []
        for offset in stride(from: size.days - 1, through: 0, by: -1) {
            let date = today.adding(days: -offset)
            let morning = zone.startOfDay(date).advanced(by: .seconds(Int.random(in: 6...9, using: &generator) * 3600))
            if Int.random(in: 0..<7, using: &generator) < 3 {
                stretches.append(
                    StretchParams(
                        id: "s\(stretches.count + 1)",
                        completedAt: Timestamp(morning, offset: zone.utcOffset(at: morning)),
                        regions: ["hamstrings", "hips", "shoulders"].shuffled(using: &generator).prefix(2).map { $0 },
                        durationSeconds: 60 * Int.random(in: 5...20, using: &generator)))
            }
            if Int.random(in: 0..<7, using: &generator) < 2 {
                let evening = morning.advanced(by: .seconds(13 * 3600))
                meditations.append(
                    MeditationParams(
                        id: "m\(meditations.count + 1)",
                        completedAt: Timestamp(evening, offset: zone.utcOffset(at: evening)),
                        durationSeconds: 60 * Int.random(in: 5...30, using: &generator)))
            }
        }
        return (stretches, meditations)
    }
}
