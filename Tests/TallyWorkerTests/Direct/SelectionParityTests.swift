import Foundation
import Logging
import PropertyBased
import TallyCalendar
import TallyCore
import TallyJSONCoding
import TallyLoad
import TallyProtocol
import TallyTesting
import Testing

@testable import TallyWorker

/// `workout.day`'s selective read (`WorkoutDay.select`: only the exercises of workouts that may fall on the date are
/// built, the others are checked where they lie) against the whole params read by the standard decoder and
/// answered by `result(for:limits:)`: whatever the selection reads, it answers the same result or the same error;
/// what it does not read, it leaves to the whole params, which name the field; and every valid document Tally's
/// encoder writes is read selectively.
@Suite struct SelectionParityTests {
    /// Zones far apart, for a history logged in one and asked about in another (travel): the day's workouts must be
    /// found whatever the two offsets.
    static let zones = [
        "Europe/Berlin", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Kathmandu", "America/St_Johns",
    ]
    static let today = LocalDate(year: 2026, month: 11, day: 23)!

    /// A generated history logged in one zone, and the params of one of its days (or a day without workouts, or
    /// today) asked in another zone; or of one of its workouts (or an id no workout has); or of a month (the current
    /// one left out or given, an earlier one).
    static func document(seed: Int, size: HistorySize? = nil) -> Document {
        let home = ZoneCalendar(timeZone: ZoneName(zones[seed % zones.count])!.timeZone)
        let asked = ZoneName(zones[(seed / zones.count) % zones.count])!
        var training = WorkoutDataGenerator(seed: UInt64(seed))
        // A year now and then (the selection's savings are in long histories), a month mostly: the suite runs these on
        // two cores beside tests that wait on real sockets.
        let size = size ?? (seed % 8 == 0 ? .year : .month)
        let workouts = training.workouts(endingOn: today, size: size, zone: home)
        let time = RequestTime(timeZone: asked, today: today)
        let unit: WeightUnit = seed % 2 == 0 ? .kilogram : .pound
        if seed % 5 == 4 {
            let id = workouts.isEmpty || seed % 3 == 0 ? "w0" : workouts[seed % workouts.count].id
            return Document(
                WorkoutDetail.self, WorkoutDetail.Params(time: time, workoutID: id, unit: unit, workouts: workouts))
        }
        let asking = ZoneCalendar(timeZone: asked.timeZone)
        if seed % 5 == 3 {
            let (stretches, meditations) = training.sessions(endingOn: today, size: .month, zone: home)
            let month: YearMonth? =
                switch seed % 4 {
                case 0: nil
                case 1: today.yearMonth
                case 2: today.adding(days: -40).yearMonth
                default: workouts.first.map { asking.localDate(of: $0.completedAt.instant).yearMonth }
                }
            return Document(
                WorkoutCalendar.self,
                WorkoutCalendar.Params(
                    time: time, month: month, types: seed % 3 == 0 ? [.workout, .meditation] : nil,
                    workouts: workouts, stretches: stretches, meditations: meditations))
        }
        let date: LocalDate =
            switch seed % 3 {
            case 0: today
            case 1: workouts.isEmpty ? today : asking.localDate(of: workouts[seed % workouts.count].completedAt.instant)
            default: today.adding(days: -(seed % 40))
            }
        return Document(
            WorkoutDay.self, WorkoutDay.Params(time: time, date: min(date, today), unit: unit, workouts: workouts))
    }

    /// Params of a selective method, and how to compare its two readings of them once changed.
    struct Document {
        let name: String
        var workouts: [WorkoutParams]
        let encode: ([WorkoutParams]) -> [UInt8]
        /// What differs between the two readings of a document, or `nil`; the last argument says whether a valid
        /// compact document must be read selectively.
        let compareReadings: @Sendable ([UInt8], RequestLimits, Bool) -> String?

        func compare(_ bytes: [UInt8], _ limits: RequestLimits, mustSelect: Bool = true) -> String? {
            compareReadings(bytes, limits, mustSelect)
        }

        init<M: SelectiveMethod>(_ method: M.Type, _ params: M.Params)
        where M.Params: WorkoutsCarrying, M.Result: Equatable {
            name = M.name
            workouts = params.workouts
            encode = { workouts in
                var params = params
                params.workouts = workouts
                return try! TallyJSON.encoder().encodeToBytes(params)
            }
            compareReadings = { bytes, limits, mustSelect in
                SelectionParityTests.compare(M.self, bytes, limits: limits, mustSelect: mustSelect)
            }
            foundationEncode = { workouts in
                var params = params
                params.workouts = workouts
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.withoutEscapingSlashes]
                return Array(try! encoder.encode(params))
            }
        }

        /// Encodes with Foundation's `JSONEncoder`, which writes an object's members in hash order (a Swift backend
        /// that builds its requests itself; slashes unescaped, as a zone name needs to be read directly).
        let foundationEncode: ([WorkoutParams]) -> [UInt8]

        var foundationBytes: [UInt8] { foundationEncode(workouts) }

        var bytes: [UInt8] { encode(workouts) }
    }

    /// What differs between the two readings of `bytes`, or `nil`: the selective read must read every valid
    /// document written compactly (the whole params answer with a result), and answer as the whole params.
    static func compare<M: SelectiveMethod>(
        _ method: M.Type, _ bytes: [UInt8], limits: RequestLimits = RequestLimits(), mustSelect: Bool = true
    ) -> String? where M.Result: Equatable {
        typealias Answer = Result<M.Result, TallyError>
        let selection = JSONCursor.read(bytes, maxListElements: limits.maxListElements) {
            M.select(&$0, limits: limits)
        }
        let whole: Answer? = (try? TallyJSONDecoder().decode(M.Params.self, from: bytes)).map { params in
            Answer { () throws(TallyError) in try M.result(for: params, limits: limits) }
        }
        guard let selection else {
            if mustSelect, case .success = whole, bytes.first == UInt8(ascii: "{"),
                bytes.dropFirst().first == UInt8(ascii: "\"")
            {
                return "\(M.name): a valid document written compactly was not read selectively"
            }
            return nil
        }
        guard let whole else { return "\(M.name): read selectively, refused by the standard decoder" }
        let selected = Answer { () throws(TallyError) in try M.result(for: selection, limits: limits) }
        return selected == whole ? nil : "\(M.name): selected \(selected), whole \(whole)"
    }

    /// Histories logged and asked in zones apart, on days with and without workouts, compact or reordered and
    /// spaced, or written by Foundation's `JSONEncoder`: the same result, and every compact one read selectively.
    @Test func theSelectionAnswersAsTheWholeParams() async {
        await propertyCheck(count: 40, input: Gen.int(in: 1...1_000_000), Gen.int(in: 0...2)) { seed, spacing in
            let problems =
                (try? await onOwnThread { () -> [String] in
                    let document = Self.document(seed: seed)
                    let bytes = document.bytes
                    var random = Xoshiro(seed: (UInt64(seed), 5, 17, 29))
                    let text = JSONText(bytes).reordered { count in (0..<count).shuffled(using: &random) }
                    let reshaped = Array(text.text(space: ["", " ", "\n\t "][spacing]).utf8)
                    return [bytes, reshaped, document.foundationBytes].compactMap { variant in
                        document.compare(variant, RequestLimits()).map { "seed \(seed): \($0)" }
                    }
                }) ?? ["the case did not run"]
            #expect(problems.isEmpty, "\(problems)")
        }
    }

    /// One value set at or past its bound somewhere in the history (a set's reps or weight, a name, an id, a
    /// plan's length), or one workout's id repeated: the selection reads only what is valid, and answers the whole
    /// params' error where the error concerns the whole list.
    @Test func valuesAtAndPastTheirBoundsGetTheSameAnswer() async {
        await propertyCheck(count: 200, input: Gen.int(in: 1...1_000_000), Gen.int(in: 0...10_000)) { seed, pick in
            let problems =
                (try? await onOwnThread { () -> [String] in
                    // A month of training: the values changed are what is tested, not the size.
                    let document = Self.document(seed: seed, size: .month)
                    let text = JSONText(document.bytes)
                    let paths = text.paths.filter { path in
                        guard case .key(let key) = path.last else { return false }
                        return Self.boundaryValues[key] != nil
                    }
                    guard !paths.isEmpty else { return [] }
                    let path = paths[pick % paths.count]
                    guard case .key(let key) = path.last, let values = Self.boundaryValues[key] else { return [] }
                    let value = values[(pick / paths.count) % values.count]
                    let changed = text.changing(path[...]) { _ in .scalar(value) }?.bytes ?? text.bytes
                    return document.compare(changed, RequestLimits()).map {
                        ["seed \(seed), \(key) = \(value.prefix(20)): \($0)"]
                    } ?? []
                }) ?? ["the case did not run"]
            #expect(problems.isEmpty, "\(problems)")
        }
    }

    /// Values at and just past each bound `WorkoutBounds` sets, as JSON text, by member name.
    static let boundaryValues: [String: [String]] = [
        "reps": ["0", "10000", "-1", "10001", "5"],
        "weight": ["0", "-0.0", "10000", "10000.0", "-0.5", "10000.5", "47.5"],
        "name": [#""""#, quoted(200, "a"), quoted(201, "a"), quoted(200, "e\u{301}"), quoted(201, "é"), #""Dips""#],
        "id": [#""""#, quoted(128, "x"), quoted(129, "x"), #""w1""#, #""w2""#],
        "template_id": [#""""#, quoted(129, "t"), "null"],
        "day_name": [#""""#, quoted(201, "d"), "null"],
        "weeks": ["0", "1", "520", "521"],
    ]

    static func quoted(_ count: Int, _ character: String) -> String {
        "\"" + String(repeating: character, count: count) + "\""
    }

    /// Lists at and past a small limit (exercises of four sets, one to six a workout; histories of a few workouts to
    /// a month of them): the selection refuses what the whole params refuse, with the same error.
    @Test func listsAtAndPastTheLimitGetTheSameAnswer() async throws {
        let problems = try await onOwnThread { () -> [String] in
            (1...40).flatMap { seed -> [String] in
                var document = Self.document(seed: seed * 7)
                document.workouts = document.workouts.prefix([2, 5, 8, 100][seed % 4]).map { workout in
                    var workout = workout
                    workout.exercises = Array(workout.exercises.prefix([1, 2, 6][seed % 3]))
                    return workout
                }
                let bytes = document.bytes
                return [3, 4, 5, 6, 7, 20, 25].compactMap { limit in
                    document.compare(bytes, RequestLimits(maxListElements: limit)).map { "limit \(limit): \($0)" }
                }
            }
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    /// One thing changed anywhere in a document, compact or reordered (`DirectDecodingParityTests.mutations`: a
    /// member removed, null, doubled or unknown; a value of another kind or at an edge of the grammar; an escape;
    /// bytes that are not UTF-8; the document cut short): whatever the selective read reads, the whole params
    /// answer alike.
    @Test func changedDocumentsAreSelectedOnlyToTheWholeAnswer() async {
        await propertyCheck(count: 250, input: Gen.int(in: 1...1_000_000), Gen.int(in: 0...1_000)) { seed, pick in
            let problems =
                (try? await onOwnThread { () -> [String] in
                    let document = Self.document(seed: seed, size: .month)
                    var text = JSONText(document.bytes)
                    if pick % 2 == 1 {
                        var random = Xoshiro(seed: (UInt64(seed), 7, 11, 13))
                        text = text.reordered { count in (0..<count).shuffled(using: &random) }
                    }
                    let paths = text.paths
                    let path = paths[pick % paths.count]
                    let mutations = DirectDecodingParityTests.mutations
                    let mutation = mutations[(pick / paths.count + seed) % mutations.count]
                    return document.compare(mutation.apply(text, path), RequestLimits(), mustSelect: false).map {
                        ["seed \(seed), \(mutation.name) at \(path): \($0)"]
                    } ?? []
                }) ?? ["the case did not run"]
            #expect(problems.isEmpty, "\(problems)")
        }
    }

    /// In a workout of another day (its exercises passed over, not built), an exercise and a set, compact or
    /// reordered: each member written twice, each left out, an unknown one added. Whatever the selective read reads,
    /// the whole params answer alike (the standard decoder refuses a member twice or unknown, and a required one
    /// missing).
    @Test func membersTwiceMissingOrUnknownInAnotherDayGetTheSameAnswer() async throws {
        let problems = try await onOwnThread { () -> [String] in
            var problems: [String] = []
            for seed in [6, 11, 21] {  // workout.day, today asked: the first workouts are of other days
                let document = Self.document(seed: seed, size: .month)
                for reordered in [false, true] {
                    var text = JSONText(document.bytes)
                    if reordered {
                        var random = Xoshiro(seed: (UInt64(seed), 3, 5, 7))
                        text = text.reordered { count in (0..<count).shuffled(using: &random) }
                    }
                    let workout: [JSONText.PathStep] = [.key("workouts"), .index(0)]
                    let exercise = workout + [.key("exercises"), .index(1)]
                    for path in [workout, exercise, exercise + [.key("sets"), .index(2)]] {
                        for change in Self.memberChanges(of: text, at: path) {
                            guard let changed = text.changing(path[...], change.apply) else { continue }
                            if let problem = document.compare(changed.bytes, RequestLimits(), mustSelect: false) {
                                problems.append("seed \(seed), \(change.name) at \(path): \(problem)")
                            }
                        }
                    }
                }
            }
            return problems
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    /// For the object at `path`: each member doubled, each removed, and an unknown one added.
    static func memberChanges(
        of text: JSONText, at path: [JSONText.PathStep]
    ) -> [(name: String, apply: (JSONText) -> JSONText?)] {
        var object: JSONText?
        _ = text.changing(path[...]) { value in
            object = value
            return value
        }
        guard case .object(let members)? = object else { return [] }
        var changes: [(name: String, apply: (JSONText) -> JSONText?)] = [
            ("an unknown member", { _ in .object(members + [JSONText.Member("unknown_member", .scalar("1"))]) })
        ]
        for (index, member) in members.enumerated() {
            changes.append(("\(member.key) twice", { _ in .object(members + [member]) }))
            // Twice with two values, one out of bounds: the standard decoder reads the first.
            if let bad = boundaryValues[member.key]?.first(where: { ["\"\"", "-1", "-0.5"].contains($0) }) {
                let outOfBounds = JSONText.Member(member.key, .scalar(bad))
                changes.append(
                    ("\(member.key) out of bounds, then as it was", { _ in .object([outOfBounds] + members) }))
                changes.append(
                    ("\(member.key) as it was, then out of bounds", { _ in .object(members + [outOfBounds]) }))
            }
            var without = members
            without.remove(at: index)
            changes.append(("\(member.key) missing", { [without] _ in .object(without) }))
        }
        return changes
    }

    /// `workout.calendar`'s month written after the workouts (an encoder writing members in another order): the
    /// workouts were read taking the current month as shown, so for another month they are read again, never
    /// answered from what was kept for the current one.
    @Test func aMonthAfterTheWorkoutsGetsTheSameAnswer() async throws {
        let problems = try await onOwnThread { () -> [String] in
            (0..<6).flatMap { index -> [String] in
                let document = Self.document(seed: 20 * index + 8, size: .month)  // month left out
                let months = [
                    Self.today.yearMonth, Self.today.adding(days: -35).yearMonth,
                    Self.today.adding(days: -300).yearMonth,
                ]
                return months.compactMap { month in
                    let bytes = Array(document.bytes.dropLast()) + Array(#","month":"\#(month)"}"#.utf8)
                    return Self.compare(WorkoutCalendar.self, bytes).map { "\(month): \($0)" }
                }
            }
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    /// Through the dispatcher, for each selective method: a plain request is answered from the selection as the
    /// standard path answers it, and so is one whose history has an exercise past its bounds (named).
    @Test(arguments: [6, 4, 3])
    func theDispatcherAnswersFromTheSelection(seed: Int) throws {
        let dispatcher = MethodRegistry.allMethods(identity: WorkerIdentity(name: "selection/1", version: "test"))
            .dispatcher(limits: RequestLimits())
        var standard = dispatcher
        standard.readsDirectly = false
        let now = Instant(secondsSince1970: 1_795_000_000)
        let logger = Logger(label: "selection")
        var document = Self.document(seed: seed)
        let valid = document.bytes
        document.workouts[0].exercises[0].sets[0].reps = 10_001
        let invalid = document.bytes
        for body in [valid, invalid] {
            let request = Array(#"{"version":1,"id":"s","method":"\#(document.name)","params":"#.utf8) + body + [0x7D]
            #expect(dispatcher.directRequest(request, service: "tally.workout") != nil)
            let answer = dispatcher.respond(to: request, service: "tally.workout", now: now, logger: logger).bytes
            let expected = standard.respond(to: request, service: "tally.workout", now: now, logger: logger).bytes
            let text = String(decoding: answer, as: UTF8.self)
            // As JSON objects: workout.calendar's `days` are written in hash order.
            func object(_ bytes: [UInt8]) -> NSDictionary? {
                try? JSONSerialization.jsonObject(with: Data(bytes)) as? NSDictionary
            }
            #expect(object(answer) != nil && object(answer) == object(expected), "\(document.name)")
            #expect(body == valid || text.contains("params.workouts[0].exercises[0].sets[0].reps"), "\(text)")
        }
    }
}

/// Params that carry workouts (`workout.day`, `workout.detail`, `workout.calendar`), for changing them.
protocol WorkoutsCarrying: Encodable {
    var workouts: [WorkoutParams] { get set }
}

extension WorkoutDay.Params: WorkoutsCarrying {}
extension WorkoutDetail.Params: WorkoutsCarrying {}
extension WorkoutCalendar.Params: WorkoutsCarrying {}
