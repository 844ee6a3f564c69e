import Foundation
import Logging
import TallyCalendar
import TallyLoad
import TallyProtocol
import TallyWorker
import TallyTesting
import Testing

/// What `tally-load --mix` sends is what the method accepts: every request the load tool generates, of every
/// method it has a generator for, is answered by the worker's dispatcher with a result, not an error. A load run
/// that measured `invalid_params` answers would measure the validation path, not the method.
@Suite struct GeneratedWorkloadTests {
    static let dispatcher = MethodRegistry.allMethods(identity: WorkerIdentity(name: "load/1", version: "test"))
        .dispatcher(limits: RequestLimits())
    static let today = LocalDate(year: 2026, month: 11, day: 23)!

    /// The kinds of a generator: the method alone, and with the smallest and a large history when it takes one.
    static let kinds: [String] = RequestKind.generators.keys.sorted().flatMap { method in
        RequestKind.generators[method] == true ? [method, "\(method)@30d", "\(method)@3y"] : [method]
    }

    /// Each kind is generated and answered on a thread of its own (`onOwnThread`): three years of history, six times,
    /// is seconds of CPU in a debug build, which on the cooperative pool starved the socket suites beside it (a
    /// broker's in-process echo missed its 10 s reply beside a busy core).
    @Test(arguments: kinds)
    func everyGeneratedRequestIsAnsweredWithAResult(kind: String) async throws {
        let problems = try await onOwnThread { () throws -> [String] in
            let workload = try Workload(mix: kind, seed: 29, today: Self.today, variants: 6)
            guard let templates = workload.entries.first?.templates, templates.count == 6 else {
                return ["\(kind): not six templates"]
            }
            return templates.enumerated().compactMap { index, template in
                let reply = Self.dispatcher.respond(
                    to: template.body(id: "load-\(index)"), service: template.service, logger: Logger(label: "load"))
                return reply.errorCode == nil && reply.method == template.method
                    ? nil : "\(kind) #\(index): \(String(decoding: reply.bytes.prefix(400), as: UTF8.self))"
            }
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func workoutDetailAsksForWorkoutsOfTheHistoryItSends() throws {
        let workload = try Workload(mix: "workout.detail@1y", seed: 7, today: Self.today, variants: 8)
        var asked: Set<String> = []
        for template in try #require(workload.entries.first?.templates) {
            let request = try #require(
                try JSONSerialization.jsonObject(with: Data(template.body(id: "x"))) as? [String: Any])
            let params = try #require(request["params"] as? [String: Any])
            let id = try #require(params["workout_id"] as? String)
            let ids = (params["workouts"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            #expect(ids.contains(id), "\(id) is one of the \(ids.count) workouts sent")
            #expect(template.service == TallyService.workout.rawValue)
            asked.insert(id)
        }
        #expect(asked.count > 1, "the variants ask for different workouts: \(asked)")
        let again = try Workload(mix: "workout.detail@1y", seed: 7, today: Self.today, variants: 8)
        #expect(
            again.entries[0].templates.map { $0.body(id: "x") }
                == workload.entries[0].templates.map { $0.body(id: "x") },
            "the same seed, the same requests")
    }
}
