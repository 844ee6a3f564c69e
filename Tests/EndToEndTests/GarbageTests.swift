import Foundation
import TallyClient
import TallyProtocol
import TallyTesting
import Testing
import ZeroMQ

/// Malformed traffic straight at the tally-broker and tally-worker processes: answered or dropped per the spec;
/// the processes stay up and keep serving.
@Suite(.serialized) struct GarbageTests {
    @Test func brokerProcessSurvivesGarbage() async throws {
        let cluster = try await TallyCluster.start(workers: 1)
        let context = try Context()
        let raw = try Socket(context, type: .dealer)
        try raw.set(.receiveTimeout, .seconds(3))
        try raw.connect(cluster.endpoint)
        let garbage: [[Frame]] = [
            ["", "MDPC99", "tally.history", "x"],
            ["", "MDPW01", Frame([0x0A])],
            ["", "MDPW01", Frame([0x03]), "only-address"],
            ["", "MDPC01"],
            ["not empty", "MDPC01", "tally.history", "{}"],
            (0..<200).map { _ in Frame("x") },
        ]
        for message in garbage { try raw.send(message) }
        try raw.send(["", "MDPC01", "tally.history", Frame([UInt8](repeating: 0x7B, count: 10 << 20))])
        let answer = try #require(try raw.receive(), "the 10 MB request is answered, not dropped")
        #expect(answer.frames.prefix(3) == ["", "MDPC01", "tally.history"])
        let body = try #require(answer.frames.last?.text)
        #expect(body.contains("\"payload_too_large\""))

        let client = try makeClient([cluster.endpoint])
        #expect(await waitForServices(client))
        _ = try await client.ping()
        #expect(cluster.broker.isRunning)
        await client.stop()
        await cluster.stop()
    }

    @Test func workerProcessSurvivesGarbageAndAnswersBadBodiesWithErrors() async throws {
        let context = try Context()
        let fakeBroker = try Socket(context, type: .router)
        try fakeBroker.set(.receiveTimeout, .seconds(10))
        try fakeBroker.bind("tcp://127.0.0.1:0")
        // Long liveness: this fake broker does not heartbeat.
        let worker = try ManagedProcess(
            TallyBinaries.worker,
            ["--broker", fakeBroker.lastEndpoint, "--service", "tally.history", "--concurrency", "1",
             "--heartbeat-liveness", "1000", "--log-level", "error"],
            name: "worker")
        let ready = try #require(try fakeBroker.receive())
        #expect(Array(ready.frames.dropFirst()) == ["", "MDPW01", Frame([0x01]), "tally.history"])
        let id = ready.frames[0]
        for message: [Frame] in [
            [id, "", "MDPW01", Frame([0x02])],
            [id, "", "MDPW01", Frame([0x09]), "x"],
            [id, "", "MDPC01", "tally.history", "x"],
            [id, "garbage"],
            [id] + (0..<200).map { _ in Frame("y") },
        ] {
            try fakeBroker.send(message)
        }

        func ask(_ body: [Frame]) throws -> String {
            try fakeBroker.send([id, "", "MDPW01", Frame([0x02]), "client-7", ""] + body)
            while true {
                let reply = try #require(try fakeBroker.receive(), "the worker answers")
                guard reply.frames.count > 3, reply.frames[3] == Frame([0x03]) else { continue }  // skip heartbeats
                #expect(reply.frames[4] == "client-7")
                return reply.frames.last?.text ?? ""
            }
        }
        #expect(try ask([#"{"version":1,"id":"ok-1","method":"system.ping"}"#]).contains(#""result""#))
        #expect(try ask(["{not json"]).contains(#""malformed_json""#))
        #expect(try ask([Frame([0xFF, 0xFE, 0x00])]).contains(#""malformed_json""#))
        #expect(try ask([Frame([UInt8](repeating: 0x20, count: 10 << 20))]).contains(#""payload_too_large""#))
        #expect(try ask(["{}", "{}"]).contains(#""invalid_request""#))
        #expect(try ask([]).contains(#""invalid_request""#))
        #expect(try ask([#"{"version":1,"id":"ok-2","method":"system.ping"}"#]).contains(#""ok-2""#))
        #expect(worker.isRunning)
        worker.terminate()
        #expect(await worker.waitForExit() == 0)
    }
}
