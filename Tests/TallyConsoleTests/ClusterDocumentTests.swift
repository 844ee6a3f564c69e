import Foundation
import Majordomo
import TallyJSONCoding
import TallyTesting
import Testing
import ZeroMQ

@testable import TallyConsole

/// The console's document: valid against its schema whatever peers named things, bounded in size by the broker's
/// own bounds, and built once per interval however many ask.
@Suite struct ClusterDocumentTests {
    static let hostile = "<script>alert(1)</script>\u{1B}[2J\"\\"

    static let builder = ClusterDocumentBuilder(
        facts: .init(version: "0.1.0", startedAt: Date(timeIntervalSince1970: 1_800_000_000), curve: true),
        refreshSeconds: 1)

    /// A recorder that saw traffic, failures and incidents on a service with a hostile name.
    static func recorder() -> ConsoleRecorder {
        let start = ContinuousClock.now
        let recorder = ConsoleRecorder(now: start, wallTime: Date(timeIntervalSince1970: 1_800_000_100))
        recorder.record(.workerReady(worker: "W", service: hostile))
        for latency in 1...200 {
            recorder.record(.replyDelivered(service: hostile, latency: .microseconds(latency * 100), attempts: 1))
        }
        recorder.record(.errorReplied(service: hostile, code: "invalid_params"))
        recorder.record(.requestFailed(service: hostile, failure: .overloaded(limit: 10)))
        recorder.record(.requestFailed(service: "nobody\u{7}", failure: .notServed))
        recorder.record(.workerExpired(worker: Frame([0, 1, 2]), service: hostile))
        recorder.record(.requestPoisoned(service: hostile, request: "id=\(hostile) method=x"))
        recorder.tick(now: start + .seconds(5), wallTime: Date(timeIntervalSince1970: 1_800_000_105))
        return recorder
    }

    static func snapshot(services: Int = 1, processesEach: Int = 2) -> BrokerSnapshot {
        var states: [String: BrokerSnapshot.ServiceState] = [:]
        for index in 0..<services {
            let name = index == 0 ? hostile : String(repeating: "s", count: 200) + "\(index)"
            let processes = (0..<processesEach).map {
                BrokerSnapshot.WorkerProcess(
                    name: $0 == 0 ? nil : String(repeating: "h", count: 58) + "/\($0)",
                    id: String(repeating: "f", count: 255), connections: 2, credit: 16, inFlight: 3, served: 1234,
                    errors: 1, silence: .milliseconds(1500))
            }
            states[name] = BrokerSnapshot.ServiceState(
                queued: 2, workers: 2 * processesEach, idleWorkers: 0, workerProcesses: processesEach,
                credit: 16 * processesEach, inFlight: 3 * processesEach, oldestWait: .milliseconds(42),
                processes: processes)
        }
        return BrokerSnapshot(services: states, isDraining: false, peerConnections: 7)
    }

    static func validate(_ bytes: [UInt8]) async throws -> ShortCommand.Result {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tally-console-\(UUID()).json")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = ProtocolExample.protocolDirectory.appendingPathComponent("tools/validate_document.py")
        return try await ShortCommand.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", script.path, "console/cluster.v1.schema.json", file.path], timeout: .seconds(60))
    }

    @Test func theDocumentMatchesItsSchemaWithHostileNamesEverywhere() async throws {
        let document = Self.builder.document(
            snapshot: Self.snapshot(), reading: Self.recorder().reading(),
            now: Date(timeIntervalSince1970: 1_800_000_106))
        #expect(document.broker.clientConnections == 3, "7 peer connections, 4 of them workers")
        #expect(document.services.map(\.name) == [Self.hostile])
        #expect(document.services[0].lastMinute.errors.map(\.code) == ["invalid_params", "overloaded"])
        #expect(document.incidents.map(\.kind) == ["request_poisoned", "worker_expired", "unavailable", "overloaded"])
        #expect(document.series.points.count == 1)
        let bytes = document.jsonBytes()
        let result = try await Self.validate(bytes)
        #expect(result.succeeded, "\(result.output)\(result.errorOutput)")
        let decoded = try TallyJSONDecoder().decode(ClusterDocument.self, from: bytes)
        #expect(decoded == document, "what tally top reads is what the broker wrote")
    }

    @Test func theDocumentIsBoundedByTheBrokersOwnBounds() async throws {
        // More services and processes than any broker holds: 600 services of 10 processes each.
        let document = Self.builder.document(
            snapshot: Self.snapshot(services: 600, processesEach: 10), reading: Self.recorder().reading(),
            now: Date(timeIntervalSince1970: 1_800_000_106))
        #expect(document.services.count == ClusterDocument.maximumServices)
        #expect(document.servicesNotListed == 600 - ClusterDocument.maximumServices)
        #expect(document.services.map(\.processes.count).reduce(0, +) == ClusterDocument.maximumProcessRows)
        #expect(document.services.last?.processesNotListed == 10)
        let bytes = document.jsonBytes()
        #expect(bytes.count < 2 << 20, "\(bytes.count) bytes")
        let result = try await Self.validate(bytes)
        #expect(result.succeeded, "\(result.output)\(result.errorOutput)")
    }

    @Test func theDocumentIsBuiltOncePerIntervalHoweverManyAsk() async {
        let cache = ClusterDocumentCache(interval: .seconds(60)) {
            try? await Task.sleep(for: .milliseconds(50))
            return Array("{}".utf8)
        }
        await withTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<50 { group.addTask { await cache.document() } }
            for await bytes in group { #expect(bytes == Array("{}".utf8)) }
        }
        #expect(await cache.builds == 1, "50 viewers at once, one build")
        _ = await cache.document()
        #expect(await cache.builds == 1, "and none more within the interval")

        let fresh = ClusterDocumentCache(interval: .zero) { [] }
        _ = await fresh.document()
        _ = await fresh.document()
        #expect(await fresh.builds == 2, "a build per interval, not one for ever")
    }
}
