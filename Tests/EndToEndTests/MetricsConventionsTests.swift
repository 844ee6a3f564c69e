import Foundation
import TallyClient
import TallyProtocol
import TallyTesting
import Testing

/// `/metrics` of a real broker and worker, after traffic, by Prometheus' conventions: the real `promtool check
/// metrics` finds nothing to say, every metric has one HELP and one TYPE line, the `process_*` metrics agree with
/// what `/proc` says about the same process, `tally_build_info` names the build, and the broker counts worker
/// processes apart from their connections.
@Suite(.realProcesses) struct MetricsConventionsTests {
    static let peers = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Interop/mdp_peers.py")
    /// Heartbeats slow enough for the Python worker (it beats every second) and for a loaded machine: no
    /// connection may come and go while the gauges are counted.
    static let heartbeats = ["--heartbeat-interval", "500ms", "--heartbeat-liveness", "10"]

    /// `promtool check metrics` on `exposition`: its exit status and what it printed.
    static func promtool(_ exposition: String) async throws -> ShortCommand.Result {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tally-metrics-\(UUID()).prom")
        try exposition.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return try await ShortCommand.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["bash", "-c", #"promtool check metrics < "$0""#, file.path],
            timeout: .seconds(30))
    }

    static var promtoolIsInstalled: Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/promtool")
        }
    }

    /// The control: promtool here really lints (a metric without HELP is a finding), so its silence on Tally's
    /// expositions below means something.
    @Test func promtoolReportsAMetricWithoutHelp() async throws {
        try #require(Self.promtoolIsInstalled, "promtool is missing: scripts/install-dependencies --test")
        let check = try await Self.promtool("# TYPE undescribed_total counter\nundescribed_total 1\n")
        #expect(check.status != 0)
        #expect((check.output + check.errorOutput).contains("no help text"), "\(check)")
    }

    @Test(.realProcesses(timeLimit: .seconds(120)))
    func brokerAndWorkerExpositionsPassPromtoolAndSayWhatTheyMean() async throws {
        try #require(Self.promtoolIsInstalled, "promtool is missing: scripts/install-dependencies --test")
        let testStart = Date().timeIntervalSince1970
        let (brokerHTTP, workerHTTP) = (ProcessProbes.freeLoopbackAddress(), ProcessProbes.freeLoopbackAddress())
        let cluster = try await TallyCluster.start(
            workers: 0, brokerArguments: ["--http", brokerHTTP] + Self.heartbeats)
        // Process A serves every service over 2 connections, each with credit 2 (--concurrency 4 shared), and
        // holds each request 3 s, so that what it holds can be seen.
        let workerA = try await TallyCluster.startWorker(
            endpoint: cluster.endpoint,
            arguments: [
                "--http", workerHTTP, "--connections", "2", "--concurrency", "4", "--simulated-latency", "3s",
            ] + Self.heartbeats, name: "worker-a")
        // Process B serves tally.streak over 3 connections with credit 2; a plain MDP/0.1 worker (no instance, no
        // credit) serves it too: one connection, a process of its own, credit 1.
        let workerB = try await TallyCluster.startWorker(
            endpoint: cluster.endpoint,
            arguments: ["--service", "tally.streak", "--connections", "3", "--concurrency", "6"] + Self.heartbeats,
            name: "worker-b")
        let plain = try ManagedProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", Self.peers.path, "worker", cluster.endpoint, "tally.streak"],
            name: "py-worker")
        let client = try makeClient([cluster.endpoint], timeout: .seconds(20), retries: 0)
        #expect(await waitForServices(client))
        #expect(
            await eventually(timeout: .seconds(15)) {
                await Self.scrape(brokerHTTP)?.value("tally_broker_worker_connections", #"service="tally.streak""#)
                    == 6
            }, "2 + 3 + 1 connections")

        // Six requests for 4 credits: 4 held by the workers, 2 queued.
        let requests = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<6 { group.addTask { _ = try await client.ping(service: .workout) } }
                try await group.waitForAll()
            }
        }
        #expect(
            await eventually(timeout: .seconds(10)) {
                let broker = await Self.scrape(brokerHTTP)
                return broker?.value("tally_broker_in_flight_requests", #"service="tally.workout""#) == 4
                    && broker?.value("tally_broker_queued_requests", #"service="tally.workout""#) == 2
            }, "4 in flight at once, as many as the connections' credit; the rest waits in the queue")
        try await requests.value
        _ = try await client.send(
            rawBody: Array(#"{"version":1,"id":"bad-1","method":"history.nope"}"#.utf8), service: "tally.history")

        let brokerText = try #require(await ProcessProbes.metrics(at: brokerHTTP))
        let workerText = try #require(await ProcessProbes.metrics(at: workerHTTP))
        for (role, text) in [("broker", brokerText), ("worker", workerText)] {
            let check = try await Self.promtool(text)
            #expect(check.status == 0, "promtool on the \(role): \(check.output)\(check.errorOutput)\n\(text)")
            #expect((check.output + check.errorOutput).isEmpty, "promtool on the \(role) found something")
            Self.expectOneHelpAndTypePerMetric(PrometheusExposition(text), role: role)
        }

        let broker = PrometheusExposition(brokerText)
        for (service, processes, connections, capacity) in [
            ("tally.streak", 3.0, 6.0, 4.0 + 6.0 + 1.0), ("tally.history", 1, 2, 4), ("tally.workout", 1, 2, 4),
        ] {
            let label = #"service="\#(service)""#
            #expect(broker.value("tally_broker_worker_processes", label) == processes, "\(service)")
            #expect(broker.value("tally_broker_worker_connections", label) == connections, "\(service)")
            #expect(broker.value("tally_broker_worker_request_capacity", label) == capacity, "\(service)")
            #expect(broker.value("tally_broker_in_flight_requests", label) == 0, "\(service): all answered")
        }
        #expect(broker.value("tally_broker_requests_total", #"service="tally.workout",outcome="delivered""#) == 6)
        #expect(
            !broker.samples.contains { ["tally_broker_workers", "tally_broker_idle_workers"].contains($0.name) },
            "the gauges that counted connections as workers are gone")

        let worker = PrometheusExposition(workerText)
        #expect(
            worker.value(
                "tally_worker_requests_total", #"service="tally.history",method="unknown",outcome="unknown_method""#)
                == 1)
        for (role, exposition, process) in [("broker", broker, cluster.broker), ("worker", worker, workerA)] {
            let builds = exposition.samples.filter { $0.name == "tally_build_info" }
            #expect(builds.map(\.labels) == [#"{version="\#(TallyBuild.version)"}"#], "\(role)")
            #expect(builds.first?.value == 1, "\(role)")
            Self.expectPlausibleProcessMetrics(exposition, of: process, startedAfter: testStart, role: role)
        }
        // CPU time only grows.
        let later = try #require(await Self.scrape(brokerHTTP))
        #expect(
            (later.value("process_cpu_seconds_total") ?? 0) >= (broker.value("process_cpu_seconds_total") ?? .infinity))

        plain.terminate()
        await plain.waitForExit()
        workerB.terminate()
        workerA.terminate()
        #expect(await workerB.waitForExit() == 0)
        #expect(await workerA.waitForExit() == 0)
        await client.stop()
        await cluster.stop()
    }

    static func scrape(_ address: String) async -> PrometheusExposition? {
        await ProcessProbes.metrics(at: address).map(PrometheusExposition.init)
    }

    /// promtool wants HELP; one of each, and TYPE too, is what Prometheus' own clients write.
    static func expectOneHelpAndTypePerMetric(_ exposition: PrometheusExposition, role: String) {
        let families = Set(exposition.samples.map(exposition.family))
        let standard: Set = [
            "process_cpu_seconds_total", "process_resident_memory_bytes", "process_virtual_memory_bytes",
            "process_open_fds", "process_max_fds", "process_start_time_seconds", "tally_build_info",
        ]
        #expect(families.isSuperset(of: standard), "\(role): \(standard.subtracting(families)) missing")
        #expect(families.count > standard.count, "\(role): Tally's own metrics are there too")
        for family in families {
            #expect(exposition.help[family]?.count == 1, "\(role): \(family) has one HELP line")
            #expect(exposition.help[family]?.first?.isEmpty == false, "\(role): \(family) has help text")
            #expect(exposition.types[family]?.count == 1, "\(role): \(family) has one TYPE line")
        }
        #expect(exposition.types["process_cpu_seconds_total"] == ["counter"], "\(role)")
        for gauge in standard.subtracting(["process_cpu_seconds_total"]) {
            #expect(exposition.types[gauge] == ["gauge"], "\(role): \(gauge)")
        }
    }

    /// The process metrics against what this test reads about the same process from `/proc` itself.
    static func expectPlausibleProcessMetrics(
        _ exposition: PrometheusExposition, of process: ManagedProcess, startedAfter testStart: TimeInterval,
        role: String
    ) {
        let now = Date().timeIntervalSince1970
        let pid = process.processIdentifier
        // Boot time is whole seconds in /proc/stat: the start time may read up to a second early.
        let started = exposition.value("process_start_time_seconds") ?? 0
        #expect(started >= testStart - 2 && started <= now, "\(role) started during this test: \(started)")
        let cpu = exposition.value("process_cpu_seconds_total") ?? -1
        #expect(cpu > 0 && cpu <= (now - testStart) * 2 + 1, "\(role): \(cpu) s of CPU on 2 cores")
        let resident = exposition.value("process_resident_memory_bytes") ?? 0
        let measured = Double(ProcessProbes.residentKiB(of: pid) ?? 0) * 1024
        #expect(resident > measured / 2 && resident < measured * 2, "\(role): RSS \(resident) vs VmRSS \(measured)")
        #expect((exposition.value("process_virtual_memory_bytes") ?? 0) >= resident, "\(role)")
        let open = exposition.value("process_open_fds") ?? 0
        let listed = Double((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.count ?? 0)
        #expect(abs(open - listed) <= 10, "\(role): \(open) open descriptors vs \(listed) in /proc/\(pid)/fd")
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        #expect(
            exposition.value("process_max_fds") == Double(limit.rlim_cur),
            "\(role): the soft limit it inherited from this test")
    }
}
