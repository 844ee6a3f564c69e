import PropertyBased
import TallyCalendar
import TallyCore
import TallyJSONCoding
import TallyLoad
import TallyTesting
import Testing

@testable import TallyProtocol

/// The generated decoders' straight pass (`straight(_:)`): an object written compactly with its members in the
/// schema's order is read as a run of literals and values. It must read every element Tally's encoder writes (that
/// is what makes it worth having), to the value the member-by-member read gives; anything else it must leave alone
/// (`nil`), never read to another value.
@Suite struct StraightPassTests {
    static let today = LocalDate(year: 2026, month: 11, day: 23)!
    static let calendar = ZoneCalendar(timeZone: ZoneName("Europe/Berlin")!.timeZone)

    static func encoded(_ value: some Encodable) -> [UInt8] { try! TallyJSON.encoder().encodeToBytes(value) }

    /// `nil` when `bytes` (one element, as written) read straight to `expected`; else what went wrong.
    static func readsStraight<Element: JSONDirectDecodable & Equatable>(
        _ bytes: [UInt8], as read: (inout JSONCursor) -> Element?, expected: Element
    ) -> String? {
        guard let value = JSONCursor.read(bytes, read) else {
            return "not read straight: \(String(decoding: bytes, as: UTF8.self))"
        }
        return value == expected ? nil : "read straight to another value: \(String(decoding: bytes, as: UTF8.self))"
    }

    /// `nil` when the straight pass leaves `bytes` alone or reads them to the value the member-by-member read and
    /// the standard decoder give.
    static func agrees<Element: JSONDirectDecodable & Decodable & Equatable>(
        _ bytes: [UInt8], as read: (inout JSONCursor) -> Element?, _ type: Element.Type
    ) -> String? {
        guard let straight = JSONCursor.read(bytes, read) else { return nil }
        let standard = try? TallyJSONDecoder().decode(Element.self, from: bytes)
        let direct = JSONCursor.read(bytes) { Element(direct: &$0) }
        guard straight == standard, straight == direct else {
            return "read straight to another value: \(String(decoding: bytes, as: UTF8.self))"
        }
        return nil
    }

    /// What is wrong with reading each of `values`, as Tally's encoder writes it, straight.
    static func problems<Element: JSONDirectDecodable & Encodable & Equatable>(
        _ values: [Element], _ read: (inout JSONCursor) -> Element?
    ) -> [String] {
        values.compactMap { readsStraight(encoded($0), as: read, expected: $0) }
    }

    /// Each case computes on a thread of its own (`onOwnThread`): on the cooperative pool, a property run's seconds
    /// of CPU would starve the suites beside it that wait on real sockets.
    @Test func everyElementTallyWritesIsReadStraight() async {
        await propertyCheck(count: 40, input: Gen.int(in: 1...1_000_000)) { seed in
            let problems =
                (try? await onOwnThread { () -> [String] in
                    var training = WorkoutDataGenerator(seed: UInt64(seed))
                    var steps = StepDataGenerator(seed: UInt64(seed))
                    let workouts = training.workouts(endingOn: Self.today, size: .month, zone: Self.calendar)
                    let (stretches, meditations) = training.sessions(
                        endingOn: Self.today, size: .month, zone: Self.calendar)
                    let records = steps.records(endingOn: Self.today, size: .month)
                    let samples = steps.samples(on: Self.today, zone: Self.calendar)
                    return (workouts.isEmpty ? ["no workouts generated"] : [])
                        + Self.problems(workouts) { WorkoutParams.straight(&$0) }
                        + Self.problems(workouts.flatMap(\.exercises)) { ExerciseParams.straight(&$0) }
                        + Self.problems(workouts.flatMap(\.exercises).flatMap(\.sets)) { SetParams.straight(&$0) }
                        + Self.problems(stretches) { StretchParams.straight(&$0) }
                        + Self.problems(meditations) { MeditationParams.straight(&$0) }
                        + Self.problems(records) { DailyRecordParams.straight(&$0) }
                        + Self.problems(samples) { StepSampleParams.straight(&$0) }
                }) ?? ["the case did not run"]
            #expect(problems.isEmpty, "\(problems.prefix(3))")
        }
    }

    /// A plan's members are all optional up to its start date: every subset of them is read straight, the first one
    /// present written right after the brace and the others after a comma.
    @Test func optionalMembersFirstAreReadStraightInEverySubset() {
        let start = LocalDate(year: 2026, month: 1, day: 5)!
        for mask in 0..<4 {
            let plan = PlanParams(
                id: mask & 1 != 0 ? "plan-1" : nil, name: mask & 2 != 0 ? "Strength" : nil, startDate: start, weeks: 8)
            #expect(Self.readsStraight(Self.encoded(plan), as: { PlanParams.straight(&$0) }, expected: plan) == nil)
        }
        // A member whose value is null is written so by a client that writes nulls: read straight too.
        let nulls = Array(#"{"id":null,"name":null,"start_date":"2026-01-05","weeks":8}"#.utf8)
        let plan = PlanParams(id: nil, name: nil, startDate: start, weeks: 8)
        #expect(Self.readsStraight(nulls, as: { PlanParams.straight(&$0) }, expected: plan) == nil)
    }

    /// What is not compact and in order is left to the member-by-member read, and what the straight pass reads from
    /// an object changed in one place is the value the other reads give.
    @Test func anythingElseIsLeftAloneOrReadToTheSameValue() {
        let changed: [String] = [
            #"{"weight":50,"reps":5,"unit":"kg"}"#,  // out of order
            #"{"reps": 5,"weight":50,"unit":"kg"}"#,  // a space after a colon
            #"{ "reps":5,"weight":50,"unit":"kg"}"#,  // after the brace
            #"{"reps":5 ,"weight":50,"unit":"kg"}"#,  // before a comma
            #"{"reps":5,"weight":50,"unit":"kg" }"#,  // before the closing brace
            #"{"reps":5,"weight":50,"unit":"kg","reps":6}"#,  // a member twice
            #"{"reps":5,"weight":50,"unit":"kg","note":"x"}"#,  // a member it does not know
            #"{"reps":5,"weight":50}"#,  // a member missing
            #"{"reps":5,"weight":50,"unit":"st"}"#,  // a unit that is not one
            #"{"reps":5.0,"weight":50,"unit":"kg"}"#,  // an integer written as a decimal
            #"{"reps":05,"weight":50,"unit":"kg"}"#,  // a leading zero
            #"{"reps":5,"weight":5e1,"unit":"kg"}"#,  // an exponent
            #"{"reps":5,"weight":50,"unit":"\u006bg"}"#,  // an escape
            #"{"re\u0070s":5,"weight":50,"unit":"kg"}"#,  // an escape in a key
            #"{"reps":5,"weight":50,"unit":"kg""#,  // cut short
            #"{"reps":5,"weight":50,"unit":"kg"}"#,  // as written: read
        ]
        var readStraight = 0
        for text in changed {
            let bytes = Array(text.utf8)
            #expect(Self.agrees(bytes, as: { SetParams.straight(&$0) }, SetParams.self) == nil, "\(text)")
            if JSONCursor.read(bytes, { SetParams.straight(&$0) }) != nil { readStraight += 1 }
        }
        #expect(readStraight == 1, "only the compact, ordered set is read straight")
    }

    /// Workouts changed anywhere (a member removed, doubled, reordered, spaced): the straight pass reads one only to
    /// the value the other reads give.
    @Test func changedWorkoutsAreReadStraightOnlyToTheirValue() async {
        await propertyCheck(count: 60, input: Gen.int(in: 1...1_000_000), Gen.int(in: 0...1_000)) { seed, pick in
            let problems =
                (try? await onOwnThread { () -> [String] in
                    var training = WorkoutDataGenerator(seed: UInt64(seed))
                    let workouts = training.workouts(endingOn: Self.today, size: .month, zone: Self.calendar)
                    guard let workout = workouts.first else { return [] }
                    let text = JSONText(Self.encoded(workout))
                    let paths = text.paths
                    let path = paths[pick % paths.count]
                    let mutation = DirectDecodingParityTests.mutations[
                        (pick / paths.count + seed) % DirectDecodingParityTests.mutations.count]
                    let bytes = mutation.apply(text, path)
                    return [Self.agrees(bytes, as: { WorkoutParams.straight(&$0) }, WorkoutParams.self)].compactMap {
                        $0.map { "\(mutation.name) at \(path): \($0)" }
                    }
                }) ?? ["the case did not run"]
            #expect(problems.isEmpty, "\(problems)")
        }
    }
}
