import Foundation
import Synchronization
import Testing
import ZeroMQ

@Suite struct SocketTests {
    let context = try! Context()

    @Test func routerAndDealerExchangeMultipartOverTCP() throws {
        let router = try Socket(context, type: .router)
        try router.bind("tcp://127.0.0.1:0")
        let endpoint = router.lastEndpoint
        #expect(endpoint.hasPrefix("tcp://127.0.0.1:") && !endpoint.hasSuffix(":0"))
        let dealer = try Socket(context, type: .dealer)
        try dealer.set(.routingID, Array("dealer-1".utf8))
        try dealer.connect(endpoint)
        try router.set(.receiveTimeout, .seconds(5))
        try dealer.set(.receiveTimeout, .seconds(5))

        try dealer.send(["", "hello", Frame([0, 1, 2, 255])])
        let received = try #require(try router.receive())
        #expect(received.frames == ["dealer-1", "", "hello", Frame([0, 1, 2, 255])])

        try router.send(["dealer-1", "", "world"])
        #expect(try dealer.receive()?.frames == ["", "world"])
    }

    @Test func receiveWithoutWaitingReturnsNil() throws {
        let dealer = try Socket(context, type: .dealer)
        try dealer.bind("inproc://nothing-\(#line)")
        #expect(try dealer.receive(dontWait: true) == nil)
    }

    @Test func tooManyFramesAreDrainedAndTheSocketStaysUsable() throws {
        let pair = try Socket(context, type: .pair)
        try pair.bind("inproc://frames")
        let peer = try Socket(context, type: .pair)
        try peer.connect("inproc://frames")
        try peer.send((0..<100).map { Frame("\($0)") })
        try peer.send(["after"])
        let big = try #require(try pair.receive(maxFrames: 4))
        #expect(big.frames == ["0", "1", "2", "3"])
        #expect(big.discardedFrames == 96)
        #expect(big.isTruncated)
        #expect(try pair.receive(maxFrames: 4)?.frames == ["after"])
    }

    @Test func aFrameCacheGivesBackTheBytesSentWhateverCollides() throws {
        let pair = try Socket(context, type: .pair)
        try pair.bind("inproc://frame-cache")
        let peer = try Socket(context, type: .pair)
        try peer.connect("inproc://frame-cache")
        let cache = FrameCache()
        // Many more distinct cached frames (longer than a frame holds in itself, at most what the cache keeps) than
        // the cache has slots, each sent twice, between frames that are longer than it keeps, inline ones and empty
        // ones: every frame must come back as sent, hit or miss.
        let small = (0..<300).map { Frame("a-longer-service.\($0 * 7919 % 1000)") }
        #expect(small.allSatisfy { $0.count > Frame.inlineCapacity && $0.count <= FrameCache.maximumLength })
        let long = Frame(String(repeating: "x", count: FrameCache.maximumLength + 1))
        for round in 0..<2 {
            for (index, frame) in small.enumerated() {
                let sent: [Frame] = [
                    frame, .empty, "MDPW01", Frame([UInt8(index % 6)]), long, small[(index + round) % 300],
                ]
                try peer.send(sent)
                #expect(try pair.receive(cache: cache)?.frames == sent)
            }
        }
    }

    @Test func routerMandatoryReportsUnknownPeers() throws {
        let router = try Socket(context, type: .router)
        try router.set(.routerMandatory, true)
        try router.bind("inproc://mandatory")
        #expect(throws: ZMQError.hostUnreachable) { try router.send(["nobody", "", "x"], dontWait: true) }
    }

    @Test func errorsCarryErrnoAndOperation() throws {
        let socket = try Socket(context, type: .dealer)
        do {
            try socket.bind("nonsense://x")
            Issue.record("bind should fail")
        } catch {
            #expect(error.errno != 0)
            #expect(error.description.contains("bind nonsense://x"))
        }
        socket.close()
        socket.close()
        #expect(socket.isClosed)
        #expect(throws: ZMQError.self) { try socket.send(["x"]) }
    }

    @Test func optionsRoundTrip() throws {
        let socket = try Socket(context, type: .router)
        try socket.set(.sendHighWaterMark, 1234)
        #expect(try socket.get(.sendHighWaterMark) == 1234)
        try socket.set(.linger, .milliseconds(250))
        #expect(try socket.get(.linger) == .milliseconds(250))
        try socket.set(.maxMessageSize, 1 << 20)
        #expect(try socket.get(.maxMessageSize) == 1 << 20)
        try socket.set(.routerMandatory, true)
        try socket.set(.routingID, [9, 8, 7])
        #expect(try socket.get(.routingID) == [9, 8, 7])
    }

    @Test func pollerWakesForSocketsAndSignals() throws {
        let signal = try WakeupSignal()
        let pair = try Socket(context, type: .pair)
        try pair.bind("inproc://poller")
        let peer = try Socket(context, type: .pair)
        try peer.connect("inproc://poller")
        var poller = Poller()
        let socketIndex = poller.register(pair)
        let signalIndex = poller.register(fileDescriptor: signal.fileDescriptor)

        #expect(try poller.poll(timeout: .milliseconds(10)) == 0)
        signal.signal()
        signal.signal()
        #expect(try poller.poll(timeout: .seconds(5)) == 1)
        #expect(poller.ready(signalIndex).contains(.readable))
        #expect(!poller.ready(socketIndex).contains(.readable))
        signal.drain()
        #expect(try poller.poll(timeout: .milliseconds(10)) == 0)

        try peer.send(["ping"])
        #expect(try poller.poll(timeout: .seconds(5)) == 1)
        #expect(poller.ready(socketIndex).contains(.readable))
    }

    @Test func shutdownEndsABlockedPoll() async throws {
        let context = try Context()
        let polling = try WakeupSignal()
        let done = try WakeupSignal()
        // The poll's thread as /proc names it (`<pid>/task/<tid>`), so that the test sees it blocked.
        let task = Mutex<String?>(nil)
        let thread = Thread {
            let socket = try! Socket(context, type: .dealer)
            var poller = Poller()
            poller.register(socket)
            task.withLock { $0 = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self") }
            polling.signal()
            let outcome = Result { () throws(ZMQError) in try poller.poll(timeout: nil) }
            socket.close()
            if case .failure(let error) = outcome, error == .terminated { done.signal() }
        }
        thread.start()
        // Shut down once the poll has begun and its thread sleeps in it, not before the socket exists.
        var started = Poller()
        started.register(fileDescriptor: polling.fileDescriptor)
        #expect(try started.poll(timeout: .seconds(30)) == 1, "the thread reached its poll")
        let stat = "/proc/\(try #require(task.withLock { $0 }))/stat"
        let asleep = ContinuousClock.now + .seconds(30)
        while Self.state(inStat: stat) != "S", ContinuousClock.now < asleep {
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(Self.state(inStat: stat) == "S", "the polling thread is blocked")
        context.shutdown()
        var poller = Poller()
        poller.register(fileDescriptor: done.fileDescriptor)
        #expect(try poller.poll(timeout: .seconds(5)) == 1)
    }

    /// The state letter of a thread's `/proc/…/stat` (`R` running, `S` asleep in a wait), or `nil`.
    static func state(inStat path: String) -> Character? {
        guard let stat = try? String(contentsOfFile: path, encoding: .utf8), let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(after: close)...].drop { $0 == " " }.first
    }
}

/// `zmq_socket_monitor` events read back through `SocketEvent`.
@Suite struct SocketMonitorTests {
    func events(_ monitor: Socket, until kind: SocketEvent.Kind, within timeout: Duration) throws -> [SocketEvent] {
        var seen: [SocketEvent] = []
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard let message = try monitor.receive(maxFrames: 4, dontWait: true) else {
                Thread.sleep(forTimeInterval: 0.01)
                continue
            }
            guard let event = SocketEvent(frames: message.frames) else { continue }
            seen.append(event)
            if event.kind.contains(kind) { break }
        }
        return seen
    }

    @Test func aConnectionToNothingIsRetriedAndAConnectionToAPeerSucceeds() throws {
        let context = try Context()
        let nowhere = try Socket(context, type: .dealer)
        try nowhere.set(.reconnectInterval, .milliseconds(20))
        try nowhere.monitor("inproc://monitor-nowhere", events: .connection)
        let nowhereEvents = try Socket(context, type: .pair)
        try nowhereEvents.connect("inproc://monitor-nowhere")
        try nowhere.connect("tcp://127.0.0.1:1")
        let retried = try events(nowhereEvents, until: .connectRetried, within: .seconds(5))
        #expect(retried.contains { $0.kind == .connectRetried && $0.endpoint == "tcp://127.0.0.1:1" }, "\(retried)")

        let router = try Socket(context, type: .router)
        try router.bind("tcp://127.0.0.1:0")
        let dealer = try Socket(context, type: .dealer)
        try dealer.monitor("inproc://monitor-peer", events: .connection)
        let dealerEvents = try Socket(context, type: .pair)
        try dealerEvents.connect("inproc://monitor-peer")
        try dealer.connect(router.lastEndpoint)
        let connected = try events(dealerEvents, until: .handshakeSucceeded, within: .seconds(5))
        #expect(connected.map(\.kind).contains(.connected))
        #expect(connected.last?.kind == .handshakeSucceeded && connected.last?.endpoint == router.lastEndpoint)
        for socket in [nowhere, nowhereEvents, router, dealer, dealerEvents] { socket.close() }
    }

    /// A monitored socket closes while a connection still lingers with unsent messages, its monitor's reader is
    /// closed right after it, and then the lingering connection's peer goes away: what a broker's stop looks like
    /// (it tells workers to DISCONNECT, closes with a linger, closes its monitor, and the workers hang up). libzmq
    /// raises the disconnection on its I/O thread with a blocking send to the monitor; before `close()` stopped the
    /// events first, that send waited for a reader that was gone, the I/O thread stopped for good, and with it every
    /// other connection of the context: a client of a stopped in-process broker stayed connected to nobody.
    @Test func aClosedMonitoredSocketCannotStopItsContextsIOThread() throws {
        let serverContext = try Context()
        let router = try Socket(serverContext, type: .router)
        try router.set(.linger, .seconds(30))
        try router.bind("tcp://127.0.0.1:0")
        try router.monitor("inproc://monitor-closing", events: [.accepted, .disconnected])
        let routerEvents = try Socket(serverContext, type: .pair)
        try routerEvents.connect("inproc://monitor-closing")
        // Another socket on the same I/O thread: it must keep accepting after all this.
        let other = try Socket(serverContext, type: .router)
        try other.bind("tcp://127.0.0.1:0")

        let peerContext = try Context()
        let slowReader = try Socket(peerContext, type: .dealer)
        try slowReader.set(.receiveHighWaterMark, 1)
        try slowReader.set(.receiveBuffer, 4096)
        try slowReader.connect(router.lastEndpoint)
        try slowReader.send(["hello"])
        let hello = try #require(try router.receive())
        // More than the peer's queue and both TCP buffers hold: the connection lingers with messages unsent.
        let chunk = Frame([UInt8](repeating: 7, count: 64 * 1024))
        for _ in 0..<400 { try router.send([hello.frames[0], chunk], dontWait: true) }

        router.close()
        routerEvents.close()
        slowReader.close()

        let latecomer = try Socket(peerContext, type: .dealer)
        try latecomer.monitor("inproc://monitor-latecomer", events: .connection)
        let latecomerEvents = try Socket(peerContext, type: .pair)
        try latecomerEvents.connect("inproc://monitor-latecomer")
        try latecomer.connect(other.lastEndpoint)
        let seen = try events(latecomerEvents, until: .handshakeSucceeded, within: .seconds(30))
        #expect(seen.last?.kind == .handshakeSucceeded, "the context's other socket still accepts: \(seen)")
        // Should the I/O thread be stuck after all, this unblocks it so that the context can end.
        serverContext.shutdown()
        for socket in [other, latecomer, latecomerEvents] { socket.close() }
    }
}
