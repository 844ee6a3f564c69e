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
    /// today) asked in another zone; or of one of its workouts (or an id no workout has).
    static func document(seed: Int, size: HistorySize? = nil) -> Document {
        let home = ZoneCalendar(timeZone: ZoneName(zones[seed % zones.count])!.timeZone)
        let asked = ZoneName(zones[(seed / zones.count) % zones.count])!
        var training = WorkoutDataGenerator(seed: UInt64(seed))
        let size = size ?? (seed % 4 == 0 ? .year : .month)
        let workouts = training.workouts(endingOn: today, size: size, zone: home)
        let time = RequestTime(timeZone: asked, today: today)
        let unit: WeightUnit = seed % 2 == 0 ? .kilogram : .pound
        if seed % 5 == 4 {
            let id = workouts.isEmpty || seed % 3 == 0 ? "w0" : workouts[seed % workouts.count].id
            return Document(
                WorkoutDetail.self, WorkoutDetail.Params(time: time, workoutID: id, unit: unit, workouts: workouts))
        }
        let asking = ZoneCalendar(timeZone: asked.timeZone)
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
        var params: WorkoutHistoryParams
        let encode: (WorkoutHistoryParams) -> [UInt8]
        /// What differs between the two readings of a document, or `nil`.
        let compare: @Sendable ([UInt8], RequestLimits) -> String?

        init<M: SelectiveMethod>(_ method: M.Type, _ params: M.Params)
        where M.Params: HistoryCarrying, M.Result: Equatable {
            name = M.name
            self.params = params.history
            encode = { history in
                var params = params
                params.history = history
                return try! TallyJSON.encoder().encodeToBytes(params)
            }
            compare = { bytes, limits in SelectionParityTests.compare(M.self, bytes, limits: limits) }
        }

        var bytes: [UInt8] { encode(params) }
    }

    /// What differs between the two readings of `bytes`, or `nil`: the selective read must read every valid
    /// document written compactly (the whole params answer with a result), and answer as the whole params.
    static func compare<M: SelectiveMethod>(
        _ method: M.Type, _ bytes: [UInt8], limits: RequestLimits = RequestLimits()
    ) -> String? where M.Result: Equatable {
        typealias Answer = Result<M.Result, TallyError>
        let selection = JSONCursor.read(bytes, maxListElements: limits.maxListElements) {
            M.select(&$0, limits: limits)
        }
        let whole: Answer? = (try? TallyJSONDecoder().decode(M.Params.self, from: bytes)).map { params in
            Answer { () throws(TallyError) in try M.result(for: params, limits: limits) }
        }
        guard let selection else {
            if case .success = whole, bytes.first == UInt8(ascii: "{"), bytes.dropFirst().first == UInt8(ascii: "\"") {
                return "\(M.name): a valid document written compactly was not read selectively"
            }
            return nil
        }
        guard let whole else { return "\(M.name): read selectively, refused by the standard decoder" }
        let selected = Answer { () throws(TallyError) in try M.result(for: selection, limits: limits) }
        return selected == whole ? nil : "\(M.name): selected \(selected), whole \(whole)"
    }

    /// Histories logged and asked in zones apart, on days with and without workouts, compact or reordered and
    /// spaced: the same result, and every compact one read selectively.
    @Test func theSelectionAnswersAsTheWholeParams() async {
        await propertyCheck(count: 60, input: Gen.int(in: 1...1_000_000), Gen.int(in: 0...2)) { seed, spacing in
            let problems =
                (try? await onOwnThread { () -> [String] in
                    let document = Self.document(seed: seed)
                    let bytes = document.bytes
                    var random = Xoshiro(seed: (UInt64(seed), 5, 17, 29))
                    let text = JSONText(bytes).reordered { count in (0..<count).shuffled(using: &random) }
                    let reshaped = Array(text.text(space: ["", " ", "\n\t "][spacing]).utf8)
                    return [bytes, reshaped].compactMap { variant in
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
                document.params.workouts = document.params.workouts.prefix([2, 5, 8, 100][seed % 4]).map { workout in
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

    /// Through the dispatcher: a plain request is answered from the selection, byte for byte as the standard path
    /// answers it, and so is one whose history has an exercise past its bounds on another day.
    @Test func theDispatcherAnswersFromTheSelection() throws {
        let dispatcher = MethodRegistry.allMethods(identity: WorkerIdentity(name: "selection/1", version: "test"))
            .dispatcher(limits: RequestLimits())
        var standard = dispatcher
        standard.readsDirectly = false
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        var document = Self.document(seed: 3)
        let valid = document.bytes
        document.params.workouts[0].exercises[0].sets[0].reps = 10_001
        let invalid = document.bytes
        for body in [valid, invalid] {
            let request = Array(#"{"version":1,"id":"s","method":"workout.day","params":"#.utf8) + body + [0x7D]
            #expect(dispatcher.directRequest(request, service: "tally.workout") != nil)
            let logger = Logger(label: "selection")
            let answer = dispatcher.respond(to: request, service: "tally.workout", now: now, logger: logger).bytes
            let expected = standard.respond(to: request, service: "tally.workout", now: now, logger: logger).bytes
            #expect(String(decoding: answer, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        }
        let error = String(
            decoding: dispatcher.respond(
                to: Array(#"{"version":1,"id":"s","method":"workout.day","params":"#.utf8) + invalid + [0x7D],
                service: "tally.workout", now: now, logger: Logger(label: "selection")
            ).bytes, as: UTF8.self)
        #expect(error.contains("params.workouts[0].exercises[0].sets[0].reps"))
    }
}

/// Params that carry a workout history (`workout.day`, `workout.detail`), for changing it.
protocol HistoryCarrying: Encodable {
    var history: WorkoutHistoryParams { get set }
}

extension WorkoutDay.Params: HistoryCarrying {}
extension WorkoutDetail.Params: HistoryCarrying {}
