import TallyJSONCoding
import TallyProtocol

extension JSONCursor {
    /// Passes over a workout's `exercises`, checking every value as `ExerciseParams.isValid(_:limits:)` and
    /// `SetParams.isValid` check the values the decoder would build, and building nothing: no array, no name, no set.
    ///
    /// An exercise or a set written as Tally's encoder writes it (compact, members in the schema's order) is passed
    /// in one straight run of literals and values; any other member by member, as the generated direct read reads
    /// it (each member once, none unknown, all required). `false` (the cursor left anywhere) for anything the direct
    /// read does not read, or a value out of its bounds: the caller then reads the exercises as values, to the same
    /// verdict, and the request goes where the field is named. So what it accepts is exactly what the direct read of
    /// `[ExerciseParams]` accepts and `isValid` passes: the same reads (`int()`, `double()`, the unit's symbol, a
    /// plain string) and the same bounds.
    ///
    /// Never inlined: its loop runs over most of a workout request's bytes, and inlined into the large read of a
    /// workout (`WorkoutParams.selected`) it runs slower (Benchmarks/README.md).
    @inline(never)
    mutating func passCheckedExercises(limits: RequestLimits) -> Bool {
        passCheckedList(limits: limits) { $0.passCheckedExercise(limits: limits) }
    }

    /// Passes over a list whose every element `element` passes, of at most `limits.maxListElements`. Inlined, so
    /// that each element's straight pass is code of the loop rather than a closure called per set.
    @inline(__always)
    private mutating func passCheckedList(limits: RequestLimits, _ element: (inout JSONCursor) -> Bool) -> Bool {
        guard consume(UInt8(ascii: "[")) else { return false }
        if consume(UInt8(ascii: "]")) { return true }
        var count = 0
        repeat {
            count += 1
            skipWhitespace()
            guard count <= limits.maxListElements, element(&self) else { return false }
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "]"))
    }

    private mutating func passCheckedExercise(limits: RequestLimits) -> Bool {
        var straight = self
        if straight.literal("{\"name\":"), straight.passCheckedName(), straight.literal(",\"sets\":"),
            straight.passCheckedList(limits: limits, { $0.passCheckedSet() }), straight.literal("}")
        {
            self = straight
            return true
        }
        var name = false
        var sets = false
        let read = object { key, cursor in
            if key.is("name") {
                guard !name else { return false }
                name = cursor.passCheckedName()
                return name
            }
            guard key.is("sets"), !sets else { return false }
            sets = cursor.passCheckedList(limits: limits) { $0.passCheckedSet() }
            return sets
        }
        return read && name && sets
    }

    /// An exercise's name: a plain string of 1...200 characters.
    private mutating func passCheckedName() -> Bool {
        text({ WorkoutBounds.fits(utf8: $0, length: WorkoutBounds.nameLength) ? true : nil }) != nil
    }

    @inline(__always)
    private mutating func passCheckedSet() -> Bool {
        var straight = self
        if straight.literal("{\"reps\":"), let reps = straight.int(), WorkoutBounds.reps.contains(reps),
            straight.literal(",\"weight\":"), let weight = straight.double(), WorkoutBounds.weight.contains(weight),
            straight.literal(",\"unit\":"), straight.text(WeightUnit.init(utf8Symbol:)) != nil, straight.literal("}")
        {
            self = straight
            return true
        }
        return passCheckedSetMemberByMember()
    }

    /// A set written otherwise than straight, member by member.
    @inline(never)
    private mutating func passCheckedSetMemberByMember() -> Bool {
        var reps: Int?
        var weight: Double?
        var unit: WeightUnit?
        let read = object { key, cursor in
            if key.is("reps") {
                guard reps == nil else { return false }
                reps = cursor.int()
                return reps != nil
            }
            if key.is("weight") {
                guard weight == nil else { return false }
                weight = cursor.double()
                return weight != nil
            }
            guard key.is("unit"), unit == nil else { return false }
            unit = cursor.text(WeightUnit.init(utf8Symbol:))
            return unit != nil
        }
        guard read, let reps, let weight, unit != nil else { return false }
        return WorkoutBounds.reps.contains(reps) && WorkoutBounds.weight.contains(weight)
    }
}
