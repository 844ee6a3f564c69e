import Foundation
import TallyClient
import TallyProtocol
import TallyTesting
import Testing

/// The operator's console on real processes: the page in a real headless browser (Debian's chromium), its JSON
/// against the schema, and `tally top --once` against one and two brokers.
@Suite(.realProcesses) struct ConsoleTests {
    /// Services named to break a page that inserted names as markup: a script element, and an image whose error
    /// handler would retitle the page.
    static let hostileServices = [
        "<script>alert(1)</script>", #"<img src=x onerror="document.title='pwned'">"#,
    ]

    /// `host/pid`, as a worker names itself.
    static func name(of worker: ManagedProcess) -> String {
        "\(ProcessInfo.processInfo.hostName)/\(worker.processIdentifier)"
    }

    @Test func thePageShowsEveryServiceAndWorkerProcessLiveAndPeersNamesAsText() async throws {
        let http = ProcessProbes.freeLoopbackAddress()
        let cluster = try await TallyCluster.start(workers: 2, brokerArguments: ["--http", http])
        let hostile = try await TallyCluster.startWorker(
            endpoint: cluster.endpoint, arguments: Self.hostileServices.flatMap { ["--service", $0] }, name: "hostile")
        let client = try makeClient([cluster.endpoint])
        #expect(
            await waitForServices(client, ["tally.history", "tally.streak", "tally.workout"] + Self.hostileServices))
        for _ in 0..<12 { _ = try await client.ping(service: .history) }

        let page = try await ConsolePage.load(http, budget: .seconds(4))
        #expect(page.refreshes >= 2, "the page refreshed itself (\(page.refreshes) times in 4 s of its time)")
        #expect(page.title == "Tally console", "no injected handler ran")
        #expect(!page.dom.contains("<script>alert"), "a name inserted as markup")
        #expect(!page.dom.contains("<img"), "a name inserted as markup")
        let services = page.rows("service").map { $0.first ?? "" }
        for service in ["tally.history", "tally.streak", "tally.workout"] + Self.hostileServices {
            #expect(services.contains(service), "\(service) among \(services)")
        }
        for worker in cluster.workers {
            for service in ["tally.history", "tally.streak", "tally.workout"] {
                #expect(
                    page.process(Self.name(of: worker), service: service) != nil,
                    "\(Self.name(of: worker)) on \(service) in \(page.rows("process"))")
            }
        }
        for service in Self.hostileServices {
            #expect(page.process(Self.name(of: hostile), service: service) != nil, "\(page.rows("process"))")
        }
        // Live numbers: the history pings were served by the cluster's workers (6 columns in: served).
        let served = cluster.workers.compactMap { page.process(Self.name(of: $0), service: "tally.history") }
            .compactMap { Int($0[5].replacingOccurrences(of: ",", with: "")) }.reduce(0, +)
        #expect(served == 12, "\(page.rows("process"))")
        await client.stop()
        hostile.terminate()
        await hostile.waitForExit()
        await cluster.stop()
    }

    @Test func aKilledWorkerLeavesThePageWithinTheLivenessWindow() async throws {
        let http = ProcessProbes.freeLoopbackAddress()
        let cluster = try await TallyCluster.start(workers: 2, brokerArguments: ["--http", http])
        let victim = Self.name(of: cluster.workers[0])
        let survivor = Self.name(of: cluster.workers[1])
        #expect(
            await eventually(timeout: .seconds(30)) {
                (try? await ConsolePage.load(http, budget: .seconds(2)))?.process(victim, service: "tally.streak")
                    != nil
            })
        let clock = ContinuousClock()
        let killed = clock.now
        cluster.workers[0].kill9()
        // The broker's own view, polled: gone within the liveness window (3 × 2.5 s), usually at the next
        // heartbeat that finds its connection closed.
        var goneFromTheBroker: Duration?
        for _ in 0..<300 {
            let body = await PlainHTTPGet.get(http, path: "/console/v1/cluster.json")?.body ?? victim
            if !body.contains(victim) {
                goneFromTheBroker = clock.now - killed
                break
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        let broker = try #require(goneFromTheBroker, "still listed 30 s after kill -9")
        #expect(broker < .seconds(7.5) + .seconds(3), "gone from the broker after \(broker); the window is 7.5 s")
        // And from the page, which reads the document every second.
        let page = try await ConsolePage.load(http, budget: .seconds(2))
        let shown = clock.now - killed
        #expect(page.process(victim, service: "tally.streak") == nil, "still on the page \(shown) after kill -9")
        #expect(page.process(survivor, service: "tally.streak") != nil, "\(page.rows("process"))")
        print("console: a worker killed with kill -9 left the broker's document after \(broker), the page by \(shown)")
        await cluster.stop()
    }

    @Test func theDocumentMatchesItsSchemaAndIsBuiltOncePerSecond() async throws {
        let http = ProcessProbes.freeLoopbackAddress()
        let cluster = try await TallyCluster.start(
            workers: 1, brokerArguments: ["--http", http, "--service-grace", "1s", "--queue-timeout", "2s"])
        let client = try makeClient([cluster.endpoint], retries: 0)
        #expect(await waitForServices(client))
        _ = try await client.ping(service: .streak)
        // A name no worker serves, full of control characters: an incident, answered at once past the grace.
        let invented = "tally.\u{1B}[2Jnobody"
        #expect(
            await eventually {
                let reply = try? await client.send(
                    rawBody: Array(#"{"version":1,"id":"x","method":"system.ping"}"#.utf8), service: invented)
                return reply.map { String(decoding: $0, as: UTF8.self).contains("unavailable") } ?? false
            })
        // Many viewers at once get one document.
        let bodies = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<10 { group.addTask { await PlainHTTPGet.get(http, path: "/console/v1/cluster.json")?.body } }
            return await group.reduce(into: [String]()) { if let body = $1 { $0.append(body) } }
        }
        #expect(bodies.count == 10)
        #expect(Set(bodies).count <= 2, "10 requests at once, built at most twice (a second boundary)")
        let body = try #require(bodies.first)
        #expect(body.contains(#""kind":"unavailable""#), "\(body)")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tally-console-\(UUID()).json")
        try Data(body.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let validation = try await ShortCommand.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", ProtocolExample.protocolDirectory.appendingPathComponent("tools/validate_document.py").path,
                "console/cluster.v1.schema.json", file.path,
            ], timeout: .seconds(60))
        #expect(validation.succeeded, "\(validation.output)\(validation.errorOutput)\n\(body)")
        await client.stop()
        await cluster.stop()
    }

    @Test func topOnceShowsEachBrokersServicesAndWorkersAndSaysWhichDidNotAnswer() async throws {
        let firstHTTP = ProcessProbes.freeLoopbackAddress()
        let secondHTTP = ProcessProbes.freeLoopbackAddress()
        let workerHTTP = ProcessProbes.freeLoopbackAddress()
        let first = try await TallyCluster.start(workers: 1, brokerArguments: ["--http", firstHTTP])
        let second = try await TallyCluster.start(workers: 0, brokerArguments: ["--http", secondHTTP])
        let worker = try await TallyCluster.startWorker(
            endpoint: second.endpoint,
            arguments: [
                "--service", "tally.streak", "--service", "tally.\u{1B}[31mred",
                "--http", workerHTTP,
            ])

        let one = try await ShortCommand.run(TallyBinaries.cli, ["top", "--once", "--http", firstHTTP])
        #expect(one.status == 0, "\(one.output)\(one.errorOutput)")
        for service in ["tally.history", "tally.streak", "tally.workout"] {
            #expect(one.output.contains(service), "\(one.output)")
        }
        #expect(one.output.contains(Self.name(of: first.workers[0])), "\(one.output)")

        let two = try await ShortCommand.run(
            TallyBinaries.cli, ["top", "--once", "--http", firstHTTP, "--http", secondHTTP])
        #expect(two.status == 0, "\(two.output)\(two.errorOutput)")
        #expect(two.output.contains(firstHTTP) && two.output.contains(secondHTTP), "\(two.output)")
        #expect(two.output.contains(Self.name(of: first.workers[0])), "\(two.output)")
        #expect(two.output.contains(Self.name(of: worker)), "\(two.output)")
        #expect(two.output.contains("tally.\\x1B[31mred"), "the escape shown, not obeyed: \(two.output)")
        #expect(!two.output.unicodeScalars.contains { $0.value == 0x1B }, "\(two.output)")

        // A worker's --http has no console (2); nothing listening (3) wins.
        let notConsole = try await ShortCommand.run(TallyBinaries.cli, ["top", "--once", "--http", workerHTTP])
        #expect(notConsole.status == 2, "\(notConsole.output)\(notConsole.errorOutput)")
        let closed = ProcessProbes.freeLoopbackAddress()
        let missing = try await ShortCommand.run(
            TallyBinaries.cli, ["top", "--once", "--http", firstHTTP, "--http", workerHTTP, "--http", closed])
        #expect(missing.status == 3, "\(missing.output)\(missing.errorOutput)")
        #expect(missing.output.contains("\(closed): no answer"), "\(missing.output)")
        let usage = try await ShortCommand.run(TallyBinaries.cli, ["top", "--once", "--http", "nonsense"])
        #expect(usage.status == 64, "\(usage.errorOutput)")

        // --json: one document, each broker's console as it is or why there is none.
        let json = try await ShortCommand.run(
            TallyBinaries.cli, ["top", "--json", "--http", firstHTTP, "--http", workerHTTP, "--http", closed])
        #expect(json.status == 3, "\(json.output)\(json.errorOutput)")
        let brokers = try #require(
            (try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])?["brokers"]
                as? [[String: Any]], "\(json.output)")
        #expect(brokers.map { $0["http"] as? String } == [firstHTTP, workerHTTP, closed])
        let services = ((brokers[0]["console"] as? [String: Any])?["services"] as? [[String: Any]])?.compactMap {
            $0["name"] as? String
        }
        #expect(services?.contains("tally.streak") == true, "\(json.output)")
        #expect((brokers[1]["error"] as? [String: Any])?["code"] as? String == "not_a_console")
        #expect(brokers[1]["answered"] as? Bool == true)
        #expect((brokers[2]["error"] as? [String: Any])?["code"] as? String == "no_answer")
        #expect(brokers[2]["answered"] as? Bool == false)

        worker.terminate()
        await worker.waitForExit()
        await second.stop()
        await first.stop()
    }
}

/// The console's page as a headless browser left it after its scripts ran.
struct ConsolePage {
    let dom: String

    /// Loads `http://address/` in chromium. A machine without a working chromium fails the test here, saying so.
    static func load(_ address: String, budget: Duration) async throws -> ConsolePage {
        ConsolePage(dom: try await HeadlessBrowser.dumpDOM("http://\(address)/", budget: budget))
    }

    /// How many times the page read the document (`data-refreshes` on its body).
    var refreshes: Int {
        guard let range = dom.range(of: #"data-refreshes="(\d+)""#, options: .regularExpression) else { return 0 }
        return Int(dom[range].filter(\.isNumber)) ?? 0
    }

    var title: String? {
        guard let start = dom.range(of: "<title>"), let end = dom.range(of: "</title>") else { return nil }
        return String(dom[start.upperBound..<end.lowerBound])
    }

    /// The text of each cell of each row of `class`, entities decoded.
    func rows(_ className: String) -> [[String]] {
        dom.components(separatedBy: #"<tr class="\#(className)">"#).dropFirst().map { row in
            let end = row.range(of: "</tr>")?.lowerBound ?? row.endIndex
            return row[..<end].components(separatedBy: "</td>").dropLast().map { cell in
                let text = cell.range(of: ">", options: .backwards).map { cell[$0.upperBound...] } ?? cell[...]
                return String(text).replacingOccurrences(of: "&lt;", with: "<")
                    .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
                    .replacingOccurrences(of: "&amp;", with: "&")
            }
        }
    }

    /// The row of a worker process on a service: process, service, connections, credit, in flight, served, errors,
    /// last heard.
    func process(_ name: String, service: String) -> [String]? {
        rows("process").first { $0.count >= 8 && $0[0] == name && $0[1] == service }
    }
}
