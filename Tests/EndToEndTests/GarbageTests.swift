import Foundation
import TallyClient
import TallyProtocol
import TallyTesting
import Testing
import ZeroMQ

/// Malformed traffic straight at the tally-broker and tally-worker processes: answered or dropped per the spec;
/// the processes stay up and keep serving.
@Suite(.realProcesses) struct GarbageTests {
    @Test func brokerProcessSurvivesGarbage() async throws {
        let cluster = try await TallyCluster.start(workers: 1)
        let endpoint = cluster.endpoint
        // Blocking socket calls on their own thread: other suites' tasks share the cooperative pool.
        let reply = try await onOwnThread { () throws -> ReceivedMessage? in
            let raw = try Socket(try Context(), type: .dealer)
            defer { raw.close() }
            try raw.set(.receiveTimeout, .seconds(3))
            try raw.connect(endpoint)
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
            return try raw.receive()
        }
        let answer = try #require(reply, "the 10 MB request is answered, not dropped")
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
        // The fake broker's blocking calls run on their own thread: other suites' tasks share the cooperative pool.
        let context = try Context()
        let fakeBroker = try Socket(context, type: .router)
        try fakeBroker.set(.receiveTimeout, .seconds(10))
        try fakeBroker.bind("tcp://127.0.0.1:0")
        // Long liveness: this fake broker does not heartbeat.
        let worker = try ManagedProcess(
            TallyBinaries.worker,
            [
                "--broker", fakeBroker.lastEndpoint, "--service", "tally.history", "--concurrency", "1",
                "--heartbeat-liveness", "1000", "--log-level", "error",
            ],
            name: "worker")
        let broker = FakeBroker(socket: fakeBroker)
        // Issues are recorded on the test's task: the thread only talks and collects.
        let (ready, answers) = try await onOwnThread { () throws -> ([Frame], [String?]) in
            try broker.run { fakeBroker in
                guard let ready = try fakeBroker.receive() else { return ([], []) }
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
                /// The reply body to `body` from client `client-7`, or `nil` if none came.
                func ask(_ body: [Frame]) throws -> String? {
                    try fakeBroker.send([id, "", "MDPW01", Frame([0x02]), "client-7", ""] + body)
                    while let reply = try fakeBroker.receive() {
                        guard reply.frames.count > 4, reply.frames[3] == Frame([0x03]) else { continue }  // heartbeats
                        return reply.frames[4] == "client-7" ? reply.frames.last?.text ?? "" : "wrong client"
                    }
                    return nil
                }
                let bodies: [[Frame]] = [
                    [#"{"version":1,"id":"ok-1","method":"system.ping"}"#], ["{not json"], [Frame([0xFF, 0xFE, 0x00])],
                    [Frame([UInt8](repeating: 0x20, count: 10 << 20))], ["{}", "{}"], [],
                    [#"{"version":1,"id":"ok-2","method":"system.ping"}"#],
                ]
                return (Array(ready.frames.dropFirst()), try bodies.map(ask))
            }
        }
        #expect(Array(ready.prefix(4)) == ["", "MDPW01", Frame([0x01]), "tally.history"])
        #expect(ready.count == 5 && ready[4].text?.hasPrefix("instance=") == true, "READY names the worker process")
        let expected = [
            #""result""#, #""malformed_json""#, #""malformed_json""#, #""payload_too_large""#,
            #""invalid_request""#, #""invalid_request""#, #""ok-2""#,
        ]
        #expect(answers.count == expected.count)
        for (answer, fragment) in zip(answers, expected) {
            #expect(answer?.contains(fragment) == true, "expected \(fragment) in \(answer ?? "no answer")")
        }
        #expect(worker.isRunning)
        worker.terminate()
        #expect(await worker.waitForExit() == 0)
    }
}

/// Hands a socket made on the test's thread to the one thread that uses it from then on.
///
/// - Important: `@unchecked Sendable` is sound because the test touches the socket only inside `run`, which
///   `onOwnThread` calls exactly once, after the creating task has let go of it.
final class FakeBroker: @unchecked Sendable {
    private let socket: Socket

    init(socket: Socket) { self.socket = socket }

    func run<T>(_ body: (Socket) throws -> T) throws -> T { try body(socket) }
}
