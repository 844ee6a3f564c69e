import Foundation
import Majordomo
import TallyTesting
import Testing
import ZeroMQ

/// Garbage sent straight to a broker and to a worker: dropped or answered per RFC 7, and the process keeps serving.
@Suite(.realProcesses) struct HostileInputTests {
    @Test func brokerSurvivesGarbage() async throws {
        let (broker, endpoint) = try startBroker()
        let worker = try echoWorker("w", endpoints: [endpoint])
        let context = try Context()
        let raw = try Socket(context, type: .dealer)
        try raw.connect(endpoint)
        let garbage: [[Frame]] = [
            ["", "MDPX01", "echo", "x"],  // wrong protocol header
            ["", "MDPW01", Frame([0x09])],  // unknown command
            ["", "MDPW01", Frame([0x03])],  // REPLY with missing frames
            ["", "MDPC01"],  // request without service
            ["no delimiter"],
            [Frame([UInt8](repeating: 0xFF, count: 300))],
            (0..<100).map { Frame("\($0)") },  // too many frames
            ["", "MDPC01", "echo", Frame([UInt8](repeating: 0x61, count: 10 << 20))],  // 10 MB body
        ]
        for message in garbage { try raw.send(message) }
        // The 10 MB request is answered by the broker itself (over its body limit), the rest dropped.
        let answer = try #require(
            try await raw.nextMessage(within: .seconds(30)), "the oversized request gets an answer")
        #expect(answer.frames.prefix(3) == ["", "MDPC01", "echo"])
        #expect(answer.frames.last?.text?.contains("limit") == true)
        #expect(try await raw.nextMessage(within: .milliseconds(500)) == nil)
        // The raw socket sent worker commands without READY; the broker told it to go away at most.
        let client = try echoClient([endpoint])
        let reply = try await client.request(
            service: "echo", body: ["still-up"], key: "still-up", timeout: .seconds(30))
        #expect(reply.body == ["still-up", "w"])
        await client.stop()
        await worker.stop()
        await broker.stop()
    }

    /// A request whose body fits the broker's 32-frame limit but not a worker's (five frames of its own) used to
    /// reach the worker truncated, be dropped there and hold the worker's slot for ever. The broker drops it now.
    @Test func aRequestBodyTooLongForAWorkerMessageDoesNotWedgeTheWorker() async throws {
        let (broker, endpoint) = try startBroker()
        let worker = try echoWorker("w", endpoints: [endpoint], concurrency: 1)
        let context = try Context()
        let raw = try Socket(context, type: .dealer)
        try raw.connect(endpoint)
        let longest = TransportLimits().maxRequestBodyFrames
        try raw.send(["", "MDPC01", "echo"] + Array(repeating: Frame("x"), count: longest + 1))
        #expect(try await raw.nextMessage(within: .milliseconds(500)) == nil, "dropped, not answered")
        // The echo worker's reply adds a frame, and its REPLY carries six frames of its own under the same limit.
        let echoable = longest - 2
        try raw.send(["", "MDPC01", "echo"] + Array(repeating: Frame("x"), count: echoable))
        let echoed = try #require(
            try await raw.nextMessage(within: .seconds(30)), "a long body within the limits is delivered")
        #expect(echoed.frames.count == 3 + echoable + 1)
        let client = try echoClient([endpoint])
        let reply = try await client.request(service: "echo", body: ["after"], key: "after", timeout: .seconds(30))
        #expect(reply.body == ["after", "w"])
        raw.close()
        await client.stop()
        await worker.stop()
        await broker.stop()
    }

    @Test func workerSurvivesGarbageFromItsBroker() async throws {
        let context = try Context()
        let fakeBroker = try Socket(context, type: .router)
        try fakeBroker.bind("tcp://127.0.0.1:0")
        // A long liveness: this fake broker never heartbeats, and the worker must not give up on it mid-test.
        let worker = try echoWorker("w", endpoints: [fakeBroker.lastEndpoint], concurrency: 1, liveness: 100)
        let ready = try #require(try await fakeBroker.nextMessage(within: .seconds(30)))
        #expect(Array(ready.frames.dropFirst(1).prefix(4)) == ["", "MDPW01", Frame([1]), "echo"])
        #expect(ready.frames.count == 6 && ready.frames[5].text?.hasPrefix("instance=") == true, "Tally's READY")
        let identity = ready.frames[0]
        let garbage: [[Frame]] = [
            [identity, "", "MDPC01", "x"],
            [identity, "", "MDPW01", Frame([0x07])],
            [identity, "", "MDPW01", Frame([0x02])],  // REQUEST without client address
            [identity, "", "MDPW01", Frame([0x02]), "c", "x"],  // REQUEST without empty delimiter
            [identity, "junk"],
            [identity] + (0..<100).map { Frame("\($0)") },
        ]
        for message in garbage { try fakeBroker.send(message) }
        try fakeBroker.send([identity, "", "MDPW01", Frame([0x02]), "client-1", "", "hello"])
        var reply: ReceivedMessage?
        repeat {
            reply = try await fakeBroker.nextMessage(within: .seconds(30))
        } while reply?.frames[3] == Frame([0x04])  // skip heartbeats
        #expect(reply.map { Array($0.frames.dropFirst()) } == ["", "MDPW01", Frame([3]), "client-1", "", "hello", "w"])
        await worker.stop()
    }
}
