import Majordomo
import Testing
import ZeroMQ

@Suite struct WireTests {
    @Test func decodesEveryBrokerInboundMessage() throws {
        #expect(
            try BrokerInbound(frames: ["C", "", "MDPC01", "echo", "a", "b"]).message
                == .request(service: "echo", body: ["a", "b"]))
        #expect(try BrokerInbound(frames: ["C", "", "MDPC01", "echo"]).message == .request(service: "echo", body: []))
        #expect(
            try BrokerInbound(frames: ["W", "", "MDPW01", Frame([1]), "echo"]).message
                == .ready(service: "echo", capabilities: nil))
        #expect(
            try BrokerInbound(frames: ["W", "", "MDPW01", Frame([3]), "C", "", "r"]).message
                == .reply(client: "C", body: ["r"]))
        #expect(
            try BrokerInbound(frames: ["W", "", "MDPW01", Frame([1]), "echo", "instance=9f future=yes"]).message
                == .ready(service: "echo", capabilities: WorkerCapabilities(instance: "9f")),
            "unknown capability keys are ignored")
        #expect(try BrokerInbound(frames: ["W", "", "MDPW01", Frame([4])]).message == .heartbeat)
        #expect(try BrokerInbound(frames: ["W", "", "MDPW01", Frame([5])]).message == .disconnect)
    }

    @Test(
        arguments: [
            (["C"], MajordomoDecodeError.missingFrames(expected: 3, got: 1)),
            (["C", "x", "MDPC01", "echo"], .missingDelimiter),
            (["C", "", "MDPC02", "echo"], .unknownHeader("MDPC02")),
            (["C", "", "MDPC01"], .missingFrames(expected: 4, got: 3)),
            (["C", "", "MDPC01", ""], .invalidServiceName),
            (["C", "", "MDPC01", Frame([0xFF, 0xFE])], .invalidServiceName),
            (["W", "", "MDPW01", Frame([9])], .unknownCommand(Frame([9]))),
            (["W", "", "MDPW01", Frame([2]), "C", "", "x"], .unknownCommand(Frame([2]))),
            (["W", "", "MDPW01", Frame([1])], .missingFrames(expected: 5, got: 4)),
            (["W", "", "MDPW01", Frame([1]), "echo", "extra"], .invalidCapabilities),
            (["W", "", "MDPW01", Frame([1]), "echo", ""], .invalidCapabilities),
            (["W", "", "MDPW01", Frame([1]), "echo", "instance="], .invalidCapabilities),
            (["W", "", "MDPW01", Frame([1]), "echo", "=x"], .invalidCapabilities),
            (["W", "", "MDPW01", Frame([1]), "echo", "a=1  b=2"], .invalidCapabilities),
            (["W", "", "MDPW01", Frame([1]), "echo", Frame([0x61, 0x3D, 0x0A])], .invalidCapabilities),
            (
                ["W", "", "MDPW01", Frame([1]), "echo", Frame([UInt8](repeating: 0x61, count: 254) + [0x3D, 0x62])],
                .invalidCapabilities
            ),
            (["W", "", "MDPW01", Frame([1]), "echo", "a=1", "extra"], .unexpectedFrames(1)),
            (["W", "", "MDPW01", Frame([3]), "C", "not-empty", "r"], .missingDelimiter),
            (["W", "", "MDPW01", Frame([4]), "junk"], .unexpectedFrames(1)),
            (["W", "", "MDPW01", "READY"], .unknownCommand("READY")),
        ] as [([Frame], MajordomoDecodeError)])
    func refusesMalformedMessages(frames: [Frame], error: MajordomoDecodeError) {
        #expect(throws: error) { try BrokerInbound(frames: frames) }
    }

    @Test func capabilitiesRoundTripThroughReady() throws {
        let capabilities = WorkerCapabilities(instance: "5f2c9a0e1b3d4c7a")
        let frames = WorkerOutbound.ready(service: "echo", capabilities: capabilities)
        #expect(frames == ["", "MDPW01", Frame([1]), "echo", "instance=5f2c9a0e1b3d4c7a"])
        #expect(
            try BrokerInbound(frames: ["W"] + frames).message == .ready(service: "echo", capabilities: capabilities))
        #expect(WorkerOutbound.ready(service: "echo") == ["", "MDPW01", Frame([1]), "echo"], "plain MDP/0.1 READY")
    }

    @Test func aWorkerNamesItsProcessInReadyWithinTheFramesBounds() throws {
        let named = WorkerCapabilities(instance: "5f", credit: 4, name: "db-1.example/4242")
        let frames = WorkerOutbound.ready(service: "echo", capabilities: named)
        #expect(frames.last == "instance=5f credit=4 name=db-1.example/4242")
        #expect(try BrokerInbound(frames: ["W"] + frames).message == .ready(service: "echo", capabilities: named))
        // A host name the frame cannot carry as it is: cut to 64 bytes, spaces and other bytes as '?', so the
        // worker still registers.
        let long = WorkerCapabilities(name: "héllo wörld/" + String(repeating: "x", count: 100))
        #expect(long.name?.utf8.count == WorkerCapabilities.maximumNameLength)
        #expect(long.name?.hasPrefix("h??llo?w??rld/x") == true)
        #expect(try WorkerCapabilities(frame: long.frame) == long)
        // A longer name from a foreign worker is cut the same way on the broker's side.
        let foreign = try WorkerCapabilities(frame: Frame("name=" + String(repeating: "y", count: 200)))
        #expect(foreign.name == String(repeating: "y", count: 64))
    }

    @Test func workerAndClientSides() throws {
        #expect(
            try WorkerInbound(frames: ["", "MDPW01", Frame([2]), "C", "", "body"])
                == .request(client: "C", body: ["body"]))
        #expect(try WorkerInbound(frames: ["", "MDPW01", Frame([4])]) == .heartbeat)
        #expect(throws: MajordomoDecodeError.unknownCommand(Frame([1]))) {
            try WorkerInbound(frames: ["", "MDPW01", Frame([1]), "x"])
        }
        #expect(try ClientInbound(frames: ["", "MDPC01", "echo", "r"]) == ClientInbound(service: "echo", body: ["r"]))
        #expect(throws: MajordomoDecodeError.unknownHeader("MDPW01")) {
            try ClientInbound(frames: ["", "MDPW01", "echo"])
        }
        #expect(WorkerOutbound.reply(client: "C", body: ["x"]) == ["", "MDPW01", Frame([3]), "C", "", "x"])
        #expect(ClientOutbound.request(service: "echo", body: ["x"]) == ["", "MDPC01", "echo", "x"])
    }
}
