import Foundation
import TallyCalendar
import TallyLoad
import TallyProtocol
import TallyTesting
import TallyWorker
import Testing

/// A method of the protocol is complete everywhere Tally needs it: each method Protocol/schemas declares (a
/// `methods/NAME.params.schema.json`) has an example in Protocol/examples, a computation the worker registers, a
/// load-tool generator and its place in `TallyMethods.v1`. Forgetting one used to fail nothing (`tally-load --mix
/// workout.detail` was refused although workers served it); now it fails here, naming the method and what it lacks.
/// `TallyMethods.v1` and TallyClient's typed calls are generated from the same schemas (WireTypes): a method whose
/// Swift type is missing does not compile.
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

    /// What `method` lacks, one phrase each (empty: it is complete).
    static func missing(_ method: String) -> [String] {
        var missing: [String] = []
        if !exemplified.contains(method) { missing.append("an example in Protocol/examples") }
        if !registered.contains(method) {
            missing.append("a computation registered by MethodRegistry.allMethods (a ComputedMethod conformance)")
        }
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
