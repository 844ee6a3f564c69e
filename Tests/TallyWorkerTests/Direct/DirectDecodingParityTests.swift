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

/// The direct reads (`JSONDirectDecodable`, `RequestDispatcher.directRequest`) against the standard decoder, on
/// the same bytes: whatever a direct read accepts, the standard decoder decodes to the same value; what it does not
/// accept, the standard decoder reads (to a value, or to the error it always gave). And the promise that makes the
/// direct path worth having: the documents Tally's clients write, members in any order, with whitespace or without,
/// read directly.
@Suite struct DirectDecodingParityTests {
    static let dispatcher = MethodRegistry.allMethods(identity: WorkerIdentity(name: "parity/1", version: "test"))
        .dispatcher(limits: RequestLimits())
    static let standardDispatcher: RequestDispatcher = {
        var standard = Self.dispatcher
        standard.readsDirectly = false
        return standard
    }()
    static let fixedNow = Instant(secondsSince1970: 1_795_000_000)

    /// Both paths' answers to `body` (as JSON objects: a result's maps, `days` by date, are written in hash order),
    /// and whether the direct path read it.
    static func answers(
        _ body: [UInt8], service: String
    ) -> (direct: NSDictionary?, standard: NSDictionary?, read: Bool) {
        let logger = Logger(label: "parity")
        let direct = dispatcher.respond(to: body, service: service, now: fixedNow, logger: logger).bytes
        let standard = standardDispatcher.respond(to: body, service: service, now: fixedNow, logger: logger).bytes
        func object(_ bytes: [UInt8]) -> NSDictionary? {
            try? JSONSerialization.jsonObject(with: Data(bytes)) as? NSDictionary
        }
        return (object(direct), object(standard), dispatcher.directRequest(body, service: service) != nil)
    }

    @Test func everyExampleGetsTheSameAnswerAndThePlainOnesAreReadDirectly() throws {
        var readDirectly = 0
        for example in try ProtocolExample.all() {
            // The request as the example writes it (`requestBody` is re-serialized by Foundation, which escapes
            // every `/`), compacted.
            let file = try JSONText(Array(Data(contentsOf: example.file)))
            guard case .object(let members) = file, let request = members.first(where: { $0.key == "request" }) else {
                Issue.record("\(example): no request")
                continue
            }
            let body = request.value.bytes
            let method = (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["method"] as? String
            let (direct, standard, read) = Self.answers(body, service: example.service)
            // system.ping and system.describe answer with the worker's uptime and clocks: not comparable.
            if method?.hasPrefix("system.") != true {
                #expect(direct != nil && direct == standard, "\(example): the two paths answer differently")
            }
            if read { readDirectly += 1 }
            let hasResult = example.expectedResponse["result"] != nil
            let isTraced = (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["trace"] != nil
            if hasResult && !isTraced {
                #expect(read, "\(example): a plain request with a result is read directly")
            }
        }
        #expect(readDirectly >= 30, "\(readDirectly) examples read directly")
    }

    // MARK: Generated params

    /// Every method of the table (`TallyMethods.v1`): the tests below read the params of each, so that a method
    /// added to the protocol is in them with nothing more to write.
    static let methods = TallyMethods.v1

    /// `document(of:seed:sizes:)` of `methods[kind]` (modulo their count).
    static func document(
        kind: Int, seed: UInt64, sizes: [HistorySize] = [.month, .month, .month, .month, .year]
    ) -> (name: String, bytes: [UInt8], check: @Sendable ([UInt8]) -> String?) {
        document(of: methods[kind % methods.count], seed: seed, sizes: sizes)
    }

    /// One params document of `method`, as the load tool's seeded generator makes it (`RequestKind`) and Tally's
    /// encoder writes it, and the check of its direct read.
    static func document(
        of method: any TallyMethod.Type, seed: UInt64, sizes: [HistorySize] = [.month, .month, .month, .month, .year]
    ) -> (name: String, bytes: [UInt8], check: @Sendable ([UInt8]) -> String?) {
        let size = sizes[Int(seed % UInt64(sizes.count))]
        let request = RequestKind.generators[method.name] == true ? "\(method.name)@\(size.rawValue)" : method.name
        let today = LocalDate(year: 2026, month: 11, day: 23)!
        let workload = try! Workload(mix: request, seed: seed, today: today, variants: 1)
        let body = workload.entries[0].templates[0].body(id: "p")
        guard case .object(let members) = JSONText(body), let params = members.first(where: { $0.key == "params" })
        else { preconditionFailure("\(request): a request without params") }
        return (method.name, params.value.bytes, { parity(method, $0) })
    }

    /// `parity(_:_:mustRead:)` of the params of `method`.
    static func parity(_ method: any TallyMethod.Type, _ bytes: [UInt8], mustRead: Bool = false) -> String? {
        func read<M: TallyMethod>(_: M.Type) -> String? {
            guard let type = M.Params.self as? any (JSONDirectDecodable & Decodable & Equatable).Type else {
                return "its params are not read directly"
            }
            return parity(type, bytes, mustRead: mustRead)
        }
        return read(method)
    }

    /// `nil` when the direct read of `bytes` is the standard decoder's value or gives up; else what differs.
    /// `mustRead`: the document is one the direct read promises to read.
    static func parity<P: JSONDirectDecodable & Decodable & Equatable>(
        _ type: P.Type, _ bytes: [UInt8], mustRead: Bool = false
    ) -> String? {
        let direct = JSONCursor.read(bytes) { P(direct: &$0) }
        let standard = try? TallyJSONDecoder().decode(P.self, from: bytes)
        if let direct {
            guard let standard else { return "read directly, refused by the standard decoder" }
            return direct == standard ? nil : "read directly to another value"
        }
        return mustRead ? "not read directly" : nil
    }

    /// The documents as written, with their members in random orders and with whitespace: read directly, to the
    /// standard decoder's values.
    /// Each case computes on a thread of its own (`onOwnThread`): a property run adds up to seconds of CPU, which
    /// on the cooperative pool would starve the suites beside it that wait on real sockets.
    @Test func generatedParamsReadDirectlyInAnyOrderAndSpacing() async {
        await propertyCheck(
            count: 70, input: Gen.int(in: 0...(Self.methods.count - 1)), Gen.int(in: 1...1_000_000), Gen.int(in: 0...2)
        ) {
            kind, seed, spacing in
            let problems =
                (try? await onOwnThread { () -> [String] in
                    let (name, bytes, _) = Self.document(kind: kind, seed: UInt64(seed))
                    var random = Xoshiro(seed: (UInt64(seed), UInt64(kind), 17, 29))
                    let text = JSONText(bytes).reordered { count in (0..<count).shuffled(using: &random) }
                    let space = ["", " ", "\n\t "][spacing]
                    let reshaped = Array(text.text(space: space).utf8)
                    return [bytes, reshaped].compactMap { variant in
                        Self.parity(Self.methods[kind], variant, mustRead: true).map { "\(name), seed \(seed): \($0)" }
                    }
                }) ?? ["the case did not run"]
            #expect(problems.isEmpty, "\(problems)")
        }
    }

    /// The documents as Foundation's `JSONEncoder` writes them by default: members in hash order and every `/`
    /// escaped (`"Europe\/Berlin"`), as a backend that encodes its requests itself sends them. Read directly, to the
    /// standard decoder's values.
    @Test func foundationsDefaultEncodingIsReadDirectly() async throws {
        let problems = try await onOwnThread { () -> [String] in
            (0..<2 * Self.methods.count).compactMap { kind -> String? in
                let (name, bytes, _) = Self.document(kind: kind, seed: UInt64(kind + 1), sizes: [.month])
                let object = try! JSONSerialization.jsonObject(with: Data(bytes))
                let foundation = Array(try! JSONSerialization.data(withJSONObject: object))
                guard foundation.contains(UInt8(ascii: "\\")) || !bytes.contains(UInt8(ascii: "/")) else {
                    return "\(name): no escape written"
                }
                return Self.parity(Self.methods[kind % Self.methods.count], foundation, mustRead: true).map {
                    "\(name): \($0)"
                }
            }
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    /// One thing changed somewhere in a generated document (a member removed, null, doubled or unknown; a value
    /// of another kind or at an edge of the grammar; an escape; bytes that are not UTF-8; the document cut short):
    /// whatever the direct read accepts, the standard decoder decodes to the same value.
    @Test func changedParamsAreReadDirectlyOnlyToTheStandardValue() async {
        await propertyCheck(
            count: 250, input: Gen.int(in: 0...(Self.methods.count - 1)), Gen.int(in: 1...1_000_000),
            Gen.int(in: 0...1_000)
        ) {
            kind, seed, pick in
            let problems =
                (try? await onOwnThread { () -> [String] in
                    // A month of data: the changes are what is tested, not the size.
                    let (name, bytes, check) = Self.document(kind: kind, seed: UInt64(seed), sizes: [.month])
                    let text = JSONText(bytes)
                    let paths = text.paths
                    let path = paths[pick % paths.count]
                    let mutation = Self.mutations[(pick / paths.count + seed) % Self.mutations.count]
                    return check(mutation.apply(text, path)).map {
                        ["\(name), seed \(seed), \(mutation.name) at \(path): \($0)"]
                    } ?? []
                }) ?? ["the case did not run"]
            #expect(problems.isEmpty, "\(problems)")
        }
    }

    /// The same changed documents as the params of whole requests that name their method after them (as an encoder
    /// writing members in hash order does): the direct path passes the params over by their structure and reads them
    /// once it knows the method, and both paths answer alike. Strings full of brackets, quotes and commas included.
    @Test func requestsWithTheirParamsFirstGetTheSameAnswer() async {
        // The system methods answer with the worker's uptime, which differs from one answer to the next.
        let comparable = Self.methods.indices.filter { Self.methods[$0].service != .system }
        await propertyCheck(
            count: 100, input: Gen.int(in: 0...(comparable.count - 1)), Gen.int(in: 1...1_000_000),
            Gen.int(in: 0...1_000)
        ) {
            pickedKind, seed, pick in
            let kind = comparable[pickedKind]
            let problems =
                (try? await onOwnThread { () -> [String] in
                    let (name, bytes, _) = Self.document(kind: kind, seed: UInt64(seed), sizes: [.month])
                    let text = JSONText(bytes)
                    let paths = text.paths
                    let path = paths[pick % paths.count]
                    let mutation =
                        pick % 3 == 0
                        ? Self.replacing("a string of brackets") { _ in .scalar(#""]},[{\"\\,\"""#) }
                        : Self.mutations[(pick / paths.count + seed) % Self.mutations.count]
                    let params = String(decoding: mutation.apply(text, path), as: UTF8.self)
                    let body = Array(#"{"params":\#(params),"id":"p","method":"\#(name)","version":1}"#.utf8)
                    let service = TallyService(sendingMethod: name).rawValue
                    let (direct, standard, _) = Self.answers(body, service: service)
                    return direct != nil && direct == standard
                        ? [] : ["\(name), seed \(seed), \(mutation.name) at \(path)"]
                }) ?? ["the case did not run"]
            #expect(problems.isEmpty, "\(problems)")
        }
    }

    struct Mutation: Sendable {
        let name: String
        let apply: @Sendable (JSONText, [JSONText.PathStep]) -> [UInt8]
    }

    /// Replaces the value at a path by `replacement`.
    static func replacing(_ name: String, _ replacement: @escaping @Sendable (JSONText) -> JSONText?) -> Mutation {
        Mutation(name: name) { text, path in (text.changing(path[...], replacement) ?? text).bytes }
    }

    static let mutations: [Mutation] = [
        replacing("removed") { _ in nil },
        replacing("null") { _ in .scalar("null") },
        replacing("a string") { _ in .scalar("\"x\"") },
        replacing("a number") { _ in .scalar("7") },
        replacing("true") { _ in .scalar("true") },
        replacing("false") { _ in .scalar("false") },
        replacing("an empty object") { _ in .object([]) },
        replacing("an empty array") { _ in .array([]) },
        replacing("a doubled member") { value in
            guard case .object(let members) = value, let first = members.first else { return value }
            return .object(members + [first])
        },
        replacing("an unknown member") { value in
            guard case .object(let members) = value else { return value }
            return .object(members + [JSONText.Member("unknown_member", .scalar("1"))])
        },
        replacing("an escaped string") { value in
            guard case .scalar(let text) = value, text.hasPrefix("\""), text.count > 2 else { return value }
            return .scalar("\"\\u0041" + text.dropFirst())
        },
        replacing("an escaped slash") { value in
            guard case .scalar(let text) = value, text.hasPrefix("\"") else { return value }
            return .scalar(text.replacingOccurrences(of: "/", with: "\\/"))
        },
        replacing("non-ASCII text") { value in
            guard case .scalar(let text) = value, text.hasPrefix("\""), text.count > 2 else { return value }
            return .scalar("\"Übung ✓ 🏋" + text.dropFirst())
        },
        replacing("a leading zero") { value in
            guard case .scalar(let text) = value, text.first?.isNumber == true else { return value }
            return .scalar("0" + text)
        },
        replacing("an exponent") { value in
            guard case .scalar(let text) = value, text.first?.isNumber == true else { return value }
            return .scalar(text + "e0")
        },
        replacing("a fraction") { value in
            guard case .scalar(let text) = value, text.first?.isNumber == true, !text.contains(".") else {
                return value
            }
            return .scalar(text + ".0")
        },
        replacing("a negative zero") { value in
            guard case .scalar(let text) = value, text.first?.isNumber == true else { return value }
            return .scalar("-0")
        },
        replacing("sixteen digits") { value in
            guard case .scalar(let text) = value, text.first?.isNumber == true else { return value }
            return .scalar("1234567890.123456")
        },
        replacing("an integer past Int64") { value in
            guard case .scalar(let text) = value, text.first?.isNumber == true else { return value }
            return .scalar("92233720368547758070")
        },
        replacing("a date past February") { value in
            guard case .scalar(let text) = value, text.count == 12, text.hasPrefix("\"") else { return value }
            return .scalar("\"2026-02-30\"")
        },
        Mutation(name: "invalid UTF-8") { text, path in
            var bytes =
                (text.changing(path[...]) { value in
                    guard case .scalar(let text) = value, text.hasPrefix("\""), text.count > 2 else { return value }
                    return .scalar("\"\u{1}" + text.dropFirst())
                } ?? text).bytes
            // The control character stands for a byte that is not UTF-8.
            if let index = bytes.firstIndex(of: 0x01) { bytes[index] = 0xC3 }
            return bytes
        },
        Mutation(name: "a raw control character") { text, path in
            (text.changing(path[...]) { value in
                guard case .scalar(let text) = value, text.hasPrefix("\""), text.count > 2 else { return value }
                return .scalar("\"\t" + text.dropFirst())
            } ?? text).bytes
        },
        Mutation(name: "a key without its colon") { text, path in
            // The colon after the path-th key (counted in document order) goes.
            var bytes = text.bytes
            let colons = bytes.indices.filter { bytes[$0] == UInt8(ascii: ":") && bytes[$0 - 1] == UInt8(ascii: "\"") }
            if !colons.isEmpty { bytes.remove(at: colons[path.count % colons.count]) }
            return bytes
        },
        Mutation(name: "a key written twice") { text, path in
            // `"key""key":value`: a stray string before a member, which a reader must not take for its key.
            let bytes = text.bytes
            let keys = bytes.indices.filter { bytes[$0] == UInt8(ascii: ":") && bytes[$0 - 1] == UInt8(ascii: "\"") }
            guard !keys.isEmpty else { return bytes }
            let colon = keys[path.count % keys.count]
            let start = bytes[..<(colon - 1)].lastIndex(of: UInt8(ascii: "\"")) ?? 0
            return Array(bytes[..<start] + bytes[start..<colon] + bytes[start...])
        },
        Mutation(name: "cut short") { text, _ in Array(text.bytes.dropLast(1 + text.bytes.count / 3)) },
        Mutation(name: "trailing bytes") { text, _ in text.bytes + Array(" x".utf8) },
    ]

    // MARK: Whole requests

    /// Members in any order, the params before the method too, with or without whitespace: read directly.
    @Test(arguments: [
        #"{"version":1,"id":"a","method":"streak.summary","params":PARAMS}"#,
        #"{"params":PARAMS,"method":"streak.summary","id":"a","version":1}"#,
        #"{"id":"a","params":PARAMS,"version":1,"method":"streak.summary"}"#,
        #" { "params" : PARAMS , "method" : "streak.summary" , "version" : 1 , "id" : "a" } "#,
    ])
    func plainEnvelopesAreReadDirectly(template: String) {
        let params = String(decoding: Self.document(of: StreakSummary.self, seed: 3).bytes, as: UTF8.self)
        let body = Array(template.replacingOccurrences(of: "PARAMS", with: params).utf8)
        let (direct, standard, read) = Self.answers(body, service: "tally.streak")
        #expect(read)
        #expect(direct != nil && direct == standard)
    }

    /// Envelopes written every way a client might: members in every order, deadlines, traces, a second envelope
    /// member, versions, ids at their bounds, params before the method, other services. The two paths answer alike.
    @Test(arguments: [
        #"{"version":1,"id":"a","method":"streak.summary","params":PARAMS}"#,
        #"{"params":PARAMS,"method":"streak.summary","id":"a","version":1}"#,
        #"{"id":"a","method":"streak.summary","version":1,"params":PARAMS,"deadline":"2099-01-01T00:00:00Z"}"#,
        #"{"id":"a","method":"streak.summary","version":1,"deadline":"2020-01-01T00:00:00Z","params":PARAMS}"#,
        #"{"id":"a","method":"streak.summary","version":1,"deadline":null,"params":PARAMS}"#,
        #"{"id":"a","method":"streak.summary","version":2,"params":PARAMS}"#,
        #"{"id":"","method":"streak.summary","version":1,"params":PARAMS}"#,
        #"{"id":"ID128","method":"streak.summary","version":1,"params":PARAMS}"#,
        #"{"id":"ID129","method":"streak.summary","version":1,"params":PARAMS}"#,
        #"{"id":"a","id":"b","method":"streak.summary","version":1,"params":PARAMS}"#,
        #"{"id":"a","method":"streak.summary","method":"history.month","version":1,"params":PARAMS}"#,
        #"{"id":"a","method":"history.month","version":1,"params":PARAMS}"#,
        #"{"id":"a","method":"streak.nope","version":1,"params":PARAMS}"#,
        #"{"id":"a","method":"streak.summary","version":1}"#,
        #"{"id":"a","method":"streak.summary","version":1,"params":PARAMS,"extra":1}"#,
        #"{"id":"a","method":"streak.summary","version":1,"params":PARAMS,"trace":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}"#,
        #" { "id" : "a" , "method" : "streak.summary" , "version" : 1 , "params" : PARAMS } "#,
        #"{"id":"a","method":"streak.summary","version":1.0,"params":PARAMS}"#,
        #"{"id":"\u0061","method":"streak.summary","version":1,"params":PARAMS}"#,
        #"{"id":"é","method":"streak.summary","version":1,"params":PARAMS}"#,
        #"[{"id":"a","method":"streak.summary","version":1,"params":PARAMS}]"#,
    ])
    func envelopesGetTheSameAnswer(template: String) {
        let params = String(decoding: Self.document(of: StreakSummary.self, seed: 3).bytes, as: UTF8.self)
        let body = Array(
            template.replacingOccurrences(of: "PARAMS", with: params)
                .replacingOccurrences(of: "ID128", with: String(repeating: "i", count: 128))
                .replacingOccurrences(of: "ID129", with: String(repeating: "i", count: 129)).utf8)
        for service in ["tally.streak", "tally.history"] {
            let (direct, standard, _) = Self.answers(body, service: service)
            #expect(direct != nil && direct == standard, "\(service): \(String(describing: direct).prefix(300))")
        }
    }
}
