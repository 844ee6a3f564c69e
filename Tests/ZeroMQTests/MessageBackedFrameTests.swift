import Foundation
import Testing
import ZeroMQ

/// Large received frames stay in their libzmq message (`ReceivedMessageBuffer`), and a broker forwards them by
/// sharing that message: these hold the frame to the bytes sent however it is read, compared, forwarded or kept.
@Suite struct MessageBackedFrameTests {
    let context = try! Context()

    /// A DEALER → ROUTER pair over TCP (the broker's own transport: libzmq's TCP decoder decides where a received
    /// message's bytes live), with a receive timeout on both so that a lost message fails instead of hanging.
    func connectedPair() throws -> (router: Socket, dealer: Socket) {
        let router = try Socket(context, type: .router)
        try router.bind("tcp://127.0.0.1:0")
        let dealer = try Socket(context, type: .dealer)
        try dealer.set(.routingID, Array("dealer".utf8))
        try dealer.connect(router.lastEndpoint)
        try router.set(.receiveTimeout, .seconds(10))
        try dealer.set(.receiveTimeout, .seconds(10))
        return (router, dealer)
    }

    /// Bytes that differ at every position modulo a prime, so that a shifted or truncated copy cannot pass.
    func pattern(_ count: Int, seed: Int = 0) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: ($0 &+ seed) % 251) }
    }

    @Test(arguments: [0, 1, 15, 16, 32, 33, 8191, 8192, 8193, 30_000, 1 << 20])
    func aReceivedFrameHoldsTheBytesSentAndEqualsTheirArray(count: Int) throws {
        let (router, dealer) = try connectedPair()
        let bytes = pattern(count, seed: count)
        try dealer.send(["head", Frame(bytes), "tail"])
        let received = try #require(try router.receive()).frames
        #expect(received.count == 4)
        let frame = received[2]
        #expect(frame.isMessageBacked == (count > 8192), "frames over 8 KiB stay in their libzmq message")
        #expect(frame.count == count)
        #expect(frame.bytes == bytes)
        #expect(frame.withUnsafeBytes { Array($0) } == bytes)
        #expect(frame == Frame(bytes) && Frame(bytes) == frame)
        #expect(frame.hashValue == Frame(bytes).hashValue)
        #expect(frame != Frame(pattern(count, seed: count + 1)) || count == 0)
        #expect(received[3] == "tail")
    }

    /// `text` takes a shortcut for ASCII: UTF-8 beyond it and invalid bytes must still read as they did, in a frame of
    /// either storage.
    @Test func textIsTheFramesUTF8AndNilForBytesThatAreNot() throws {
        #expect(Frame("tally.history").text == "tally.history")
        #expect(Frame("Zürich→東京").text == "Zürich→東京")
        #expect(Frame([0xFF, 0xFE]).text == nil)
        #expect(Frame([0x61, 0xC3]).text == nil, "a sequence cut short")
        #expect(Frame([UInt8]()).text == "")
        let (router, dealer) = try connectedPair()
        let long = String(repeating: "ü", count: 5_000)
        try dealer.send([Frame(long), Frame(Array(long.utf8) + [0xFF])])
        let received = try #require(try router.receive()).frames
        #expect(received[1].isMessageBacked && received[1].text == long)
        #expect(received[2].isMessageBacked && received[2].text == nil)
    }

    /// A broker's forwarding: the same received frame sent on to another peer several times (a request re-queued
    /// and dispatched again), its source socket closed and the original dropped before the copies are read.
    @Test func aForwardedFrameArrivesWholeEveryTimeAndOutlivesItsSocket() throws {
        let (router, dealer) = try connectedPair()
        let bytes = pattern(100_000, seed: 7)
        try dealer.send([Frame(bytes)])
        var frame: Frame? = try #require(try router.receive()).frames[1]
        #expect(frame?.isMessageBacked == true)
        router.close()
        dealer.close()

        let (next, receiver) = try connectedPair()
        // The ROUTER learns the DEALER's id from its first message.
        try receiver.send(["hello"])
        _ = try #require(try next.receive())
        for _ in 0..<3 { try next.send(["dealer", try #require(frame)]) }
        frame = nil
        for _ in 0..<3 {
            let copy = try #require(try receiver.receive()).frames
            #expect(copy.count == 1 && copy[0].bytes == bytes)
        }
    }

    /// Frames are `Sendable`: one message-backed frame sent from two threads at once, each on its own socket, must
    /// arrive whole every time (libzmq's reference count is shared between the threads).
    @Test func oneFrameSentFromTwoThreadsAtOnceArrivesWholeEveryTime() async throws {
        let (router, dealer) = try connectedPair()
        let bytes = pattern(20_000, seed: 3)
        try dealer.send([Frame(bytes)])
        let frame = try #require(try router.receive()).frames[1]
        #expect(frame.isMessageBacked)
        let sink = try Socket(context, type: .router)
        try sink.bind("inproc://message-backed-sink")
        try sink.set(.receiveTimeout, .seconds(10))
        let rounds = 500
        let context = self.context
        let senders = (0..<2).map { _ in
            Thread.detachNewThreadWithResult {
                let push = try Socket(context, type: .dealer)
                try push.set(.sendHighWaterMark, 0)
                try push.connect("inproc://message-backed-sink")
                for _ in 0..<rounds { try push.send([frame]) }
                try push.set(.linger, .seconds(10))
                push.close()
            }
        }
        // Compared as frames (`memcmp`): element by element, a thousand 20 KB comparisons held a thread of the
        // cooperative pool for seconds in a debug build, and starved the suites beside it.
        let sent = Frame(bytes)
        for _ in 0..<(2 * rounds) {
            let received = try #require(try sink.receive()).frames
            #expect(received.count == 2 && received[1] == sent)
        }
        for sender in senders { try await sender.value }
    }
}

extension Thread {
    /// Runs `body` on a new thread of its own (sockets belong to one thread), for the caller to await.
    fileprivate static func detachNewThreadWithResult(
        _ body: @escaping @Sendable () throws -> Void
    ) -> Task<Void, any Error> {
        let (stream, continuation) = AsyncStream.makeStream(of: Result<Void, any Error>.self)
        Thread.detachNewThread {
            continuation.yield(Result { try body() })
            continuation.finish()
        }
        return Task {
            for await result in stream { try result.get() }
        }
    }
}
