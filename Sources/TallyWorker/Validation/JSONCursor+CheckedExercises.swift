import TallyJSONCoding
import TallyProtocol

extension JSONCursor {
    /// Passes over a workout's `exercises` written as Tally's encoder writes them (compact, members in the schema's
    /// order), checking every value as `ExerciseParams.isValid(_:limits:)` and `SetParams.isValid` check the values
    /// the decoder would build, and building nothing: no array, no name, no set.
    ///
    /// `false` (the cursor left anywhere) for anything else: another layout (the caller then reads the exercises as
    /// values), or a value out of its bounds (the request then goes where the field is named). So what it accepts is
    /// exactly what the straight read of `[ExerciseParams]` accepts and `isValid` passes: the same reads (`int()`,
    /// `double()`, the unit's symbol, a plain string) and the same bounds.
    mutating func passCheckedExercises(limits: RequestLimits) -> Bool {
        guard literal("[") else { return false }
        if literal("]") { return true }
        var exercises = 0
        repeat {
            exercises += 1
            guard exercises <= limits.maxListElements, literal("{\"name\":"),
                text({ WorkoutBounds.fits(utf8: $0, length: WorkoutBounds.nameLength) ? true : nil }) != nil,
                literal(",\"sets\":"), passCheckedSets(limits: limits), literal("}")
            else { return false }
        } while literal(",")
        return literal("]")
    }

    /// Passes over an exercise's `sets` as `passCheckedExercises(limits:)` does.
    private mutating func passCheckedSets(limits: RequestLimits) -> Bool {
        guard literal("[") else { return false }
        if literal("]") { return true }
        var sets = 0
        repeat {
            sets += 1
            guard sets <= limits.maxListElements, literal("{\"reps\":"), let reps = int(),
                WorkoutBounds.reps.contains(reps), literal(",\"weight\":"), let weight = double(),
                WorkoutBounds.weight.contains(weight), literal(",\"unit\":"),
                text(WeightUnit.init(utf8Symbol:)) != nil, literal("}")
            else { return false }
        } while literal(",")
        return literal("]")
    }
}
