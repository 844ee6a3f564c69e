import Foundation
import TallyCalendar
import TallyClient
import TallyLoad
import TallyProtocol
import TallyTesting
import TallyWorker
import Testing

/// A method of the protocol is complete everywhere Tally needs it: each method Protocol/schemas declares (a
/// `methods/NAME.params.schema.json`) has an example in Protocol/examples, a registration in the worker's registry,
/// a typed call in `TallyClient`, a load-tool generator and its place in `TallyMethods.v1`. Forgetting one used to
/// fail nothing (`tally-load --mix workout.detail` was refused although workers served it); now it fails here,
/// naming the method and what it lacks.
@Suite struct MethodCompletenessTests {
    /// The methods Protocol/ declares: the names of its params schemas.
    static let declared: [String] = {
        let folder = ProtocolExample.protocolDirectory.appendingPathComponent("schemas/methods")
        let suffix = ".params.schema.json"
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(suffix) }.map { String($0.dropLast(suffix.count)) }.sorted()
    }()

    /// The methods the examples call, by the `method` of their requests.
    static let exemplified: Set<String> = Set(
        ((try? ProtocolExample.all()) ?? []).compactMap { example in
            (try? JSONSerialization.jsonObject(with: Data(example.requestBody)) as? [String: Any])?["method"]
                as? String
        })

    /// The methods `tally-worker` registers, on any service.
    static let registered: Set<String> = {
        let dispatcher = MethodRegistry.allMethods(identity: WorkerIdentity(name: "complete/1", version: "test"))
            .dispatcher(limits: RequestLimits())
        return Set(TallyService.domainServices.flatMap { dispatcher.methods(of: $0.rawValue) })
    }()

    /// A typed call of `TallyClient`, tied to its method by its types: an entry compiles only when the client has
    /// a call that takes the method's params and returns its result.
    struct TypedCall: Sendable {
        let method: String

        init<M: TallyMethod>(
            _ method: M.Type, _ call: @escaping @Sendable (TallyClient, M.Params) async throws -> M.Result
        ) {
            self.method = M.name
        }
    }

    /// The client's typed calls. A method of the protocol without one fails `everyMethodIsComplete` until its call
    /// is written in `TallyClient+Methods.swift` and listed here.
    static let typedCalls: [TypedCall] = [
        TypedCall(HistoryMonths.self) { try await $0.historyMonths($1) },
        TypedCall(HistoryMonth.self) { try await $0.historyMonth($1) },
        TypedCall(HistoryDashboard.self) { try await $0.historyDashboard($1) },
        TypedCall(StreakSummary.self) { try await $0.streakSummary($1) },
        TypedCall(WorkoutCalendar.self) { try await $0.workoutCalendar($1) },
        TypedCall(WorkoutDay.self) { try await $0.workoutDay($1) },
        TypedCall(WorkoutDetail.self) { try await $0.workoutDetail($1) },
        TypedCall(SystemPing.self) { client, _ in try await client.ping() },
        TypedCall(SystemDescribe.self) { client, _ in try await client.describe() },
    ]

    /// What `method` lacks, one phrase each (empty: it is complete).
    static func missing(_ method: String) -> [String] {
        var missing: [String] = []
        if !exemplified.contains(method) { missing.append("an example in Protocol/examples") }
        if !registered.contains(method) { missing.append("a registration in MethodRegistry.allMethods") }
        if !typedCalls.contains(where: { $0.method == method }) { missing.append("a typed call in TallyClient") }
        if RequestKind.generators[method] == nil { missing.append("a load-tool generator (RequestKind)") }
        if !TallyMethods.v1.contains(where: { $0.name == method }) { missing.append("its place in TallyMethods.v1") }
        return missing
    }

    @Test func protocolDeclaresTheMethods() {
        #expect(Self.declared.count >= 9, "\(Self.declared)")
        #expect(Self.declared.contains("history.month") && Self.declared.contains("system.describe"))
    }

    @Test(arguments: declared)
    func everyMethodIsComplete(method: String) {
        let missing = Self.missing(method)
        #expect(missing.isEmpty, "\(method) lacks \(missing.joined(separator: ", "))")
    }

    /// And the other way round: nothing in Swift serves, calls or generates a method Protocol/ does not declare.
    @Test func everyMethodOfSwiftIsDeclared() {
        let declared = Set(Self.declared)
        let lists: [(String, Set<String>)] = [
            ("TallyMethods.v1", Set(TallyMethods.v1.map { $0.name })),
            ("MethodRegistry.allMethods", Self.registered),
            ("the typed calls of TallyClient", Set(Self.typedCalls.map(\.method))),
            ("RequestKind.generators", Set(RequestKind.generators.keys)),
        ]
        for (list, methods) in lists {
            #expect(methods.subtracting(declared).isEmpty, "\(list) has undeclared \(methods.subtracting(declared))")
        }
        #expect(TallyMethods.v1.count == Set(TallyMethods.v1.map { $0.name }).count, "each method once")
    }

    /// The generator of each method generates a request for it, to the service that answers it.
    @Test(arguments: declared)
    func theLoadToolGeneratesTheMethod(method: String) throws {
        // A method without a generator or a place in the table is reported by `everyMethodIsComplete`.
        guard RequestKind.generators[method] != nil,
            let service = TallyMethods.v1.first(where: { $0.name == method })?.service
        else { return }
        let workload = try Workload(
            mix: method, seed: 1, today: LocalDate(year: 2026, month: 11, day: 23)!, variants: 1)
        let template = try #require(workload.entries.first?.templates.first)
        #expect(template.method == method)
        #expect(template.service == (service == .system ? TallyService.history : service).rawValue)
    }
}
