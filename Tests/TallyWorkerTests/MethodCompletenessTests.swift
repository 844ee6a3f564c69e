import Foundation
import TallyCalendar
import TallyLoad
import TallyProtocol
import TallyTesting
import TallyWorker
import Testing

/// A method of the protocol is complete everywhere Tally needs it: each method Protocol/schemas declares (a
/// `methods/NAME.params.schema.json`) has an example in Protocol/examples, a computation the worker registers, a
/// load-tool generator, its place in `TallyMethods.v1`, and its place in each document that lists the methods (its
/// section in Protocol/methods, its row in Protocol/README's table, its call in the Python client's README, its rows
/// in the DocC tables of TallyProtocol's methods and TallyClient's typed calls).
/// Forgetting one used to fail nothing (`tally-load --mix workout.detail` was refused although workers served it);
/// now it fails here, naming the method and what it lacks. Its Swift type, params and result, `TallyMethods.v1`
/// and TallyClient's typed calls are generated from the same schemas (WireTypes).
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

    /// A document of the repository, by its path from the repository's root; empty when it cannot be read.
    static func document(_ path: String) -> String {
        let root = ProtocolExample.protocolDirectory.deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    /// The rows of Protocol/README's table of services and methods.
    static let tableRows: [Substring] = {
        let text = document("Protocol/README.md")
        guard let section = text.range(of: "## Services and methods") else { return [] }
        return text[section.upperBound...].split(separator: "\n").drop { !$0.hasPrefix("|") }.prefix {
            $0.hasPrefix("|")
        }
    }()

    /// The typed calls the Python client's README lists (`history_month`, `system_ping(service=…)`).
    static let pythonCalls: Substring = {
        let text = document("clients/python/README.md")
        guard let list = text.range(of: "**One typed call per method**") else { return "" }
        return text[list.upperBound...].prefix { $0 != "." }
    }()

    /// What the documents that list the methods lack of `method`, one phrase each.
    static func undocumented(_ method: String) -> [String] {
        var missing: [String] = []
        let area = String(method.prefix { $0 != "." })
        if !document("Protocol/methods/\(area).md").contains("\n## `\(method)`\n") {
            missing.append("its section (## `\(method)`) in Protocol/methods/\(area).md")
        }
        // The row of its service, or of every service for the system methods.
        let service = area == "system" ? "every service" : "`tally.\(area)`"
        if !tableRows.contains(where: { $0.hasPrefix("| \(service) ") && $0.contains("`\(method)`") }) {
            missing.append("its place in the row of \(service) in Protocol/README.md's table of services and methods")
        }
        let call = method.replacingOccurrences(of: ".", with: "_")
        if !pythonCalls.contains("`\(call)`") && !pythonCalls.contains("`\(call)(") {
            missing.append("its call (`\(call)`) in clients/python/README.md's list of typed calls")
        }
        // The DocC tables of the methods: every method in TallyProtocol's, every typed call in TallyClient's.
        let row = "\n| `\(method)` |"
        if !document("Sources/TallyProtocol/TallyProtocol.docc/Methods.md").contains(row) {
            missing.append("its row in TallyProtocol.docc/Methods.md")
        }
        if area != "system", !document("Sources/TallyClient/TallyClient.docc/CallingEveryMethod.md").contains(row) {
            missing.append("its typed call's row in TallyClient.docc/CallingEveryMethod.md")
        }
        return missing
    }

    /// What `method` lacks, one phrase each (empty: it is complete).
    static func missing(_ method: String) -> [String] {
        var missing: [String] = []
        if !exemplified.contains(method) { missing.append("an example in Protocol/examples") }
        if !registered.contains(method) {
            missing.append("a computation registered by MethodRegistry.allMethods (a ComputedMethod conformance)")
        }
        if RequestKind.generators[method] == nil { missing.append("a load-tool generator (RequestKind)") }
        if !TallyMethods.v1.contains(where: { $0.name == method }) { missing.append("its place in TallyMethods.v1") }
        return missing + undocumented(method)
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

    /// The documents are read as the test reads them: a method they do not list is reported as missing.
    @Test func aMethodTheDocumentsDoNotListIsMissingFromThem() {
        #expect(Self.tableRows.count >= 5, "\(Self.tableRows)")
        #expect(Self.undocumented("history.month").isEmpty)
        let unlisted = Self.undocumented("history.fortnight")
        #expect(unlisted.count == 5, "\(unlisted)")
        #expect(Self.undocumented("system.ping").isEmpty, "a system method has no typed call of its own")
        #expect(unlisted.first?.contains("Protocol/methods/history.md") == true, "\(unlisted)")
    }

    /// The fuzzer of the direct reads picks a method by its place in `TallyMethods.v1` (an input's first byte): each
    /// of its seeds named after a method picks that method, so that a method added to the table, which moves the
    /// places after it, fails here, saying the byte each moved seed now needs.
    @Test func theFuzzersSeedsPickTheMethodTheyAreNamedAfter() throws {
        let root = ProtocolExample.protocolDirectory.deletingLastPathComponent()
        let folder = root.appendingPathComponent("Fuzz/Corpus/FuzzDirectDecoding")
        let methods = TallyMethods.v1.map { $0.name }
        var named = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
            guard let method = methods.firstIndex(where: { file.hasPrefix($0 + "-") }) else { continue }
            named += 1
            let seed = try #require(FileManager.default.contents(atPath: folder.appendingPathComponent(file).path))
            let picked = Int(try #require(seed.first)) % methods.count
            #expect(picked == method, "\(file) picks \(methods[picked]): its first byte must be \(method)")
        }
        #expect(named >= 40, "\(named) seeds named after a method")
    }

    /// The generator of each method generates a request for it, to the service that answers it.
    @Test(arguments: declared)
    func theLoadToolGeneratesTheMethod(method: String) throws {
        // A method without a generator or a place in the table is reported by `everyMethodIsComplete`.
        guard RequestKind.generators[method] != nil,
            let service = TallyMethods.v1.first(where: { $0.name == method })?.defaultService
        else { return }
        let workload = try Workload(
            mix: method, seed: 1, today: LocalDate(year: 2026, month: 11, day: 23)!, variants: 1)
        let template = try #require(workload.entries.first?.templates.first)
        #expect(template.method == method)
        #expect(template.service == service.rawValue)
    }
}
