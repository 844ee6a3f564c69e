import Dispatch
import Foundation
import ZeroMQ

/// The floor Tally is measured against: a raw libzmq ROUTER echo and a DEALER keeping `inFlight` messages of the
/// same size outstanding, one hop over loopback TCP, each on its own thread, no broker, no JSON.
package struct RawEchoBaseline: Sendable {
    package var bodySize: Int
    package var inFlight: Int
    package var requests: Int?
    package var duration: Duration?

    package init(bodySize: Int, inFlight: Int, requests: Int?, duration: Duration?) {
        self.bodySize = bodySize
        self.inFlight = inFlight
        self.requests = requests
        self.duration = duration
    }

    /// How long the echo may go without answering anything before the run fails.
    static let silenceLimit: Duration = .seconds(10)

    /// Runs the echo and returns what it measured.
    /// - Throws: `WorkloadError` when the echo cannot start, or stops answering for `silenceLimit`.
    package func run() throws -> LoadSummary {
        let context = try Context()
        let results = LoadResults(labels: ["raw echo"])
        let ready = DispatchSemaphore(value: 0)
        let stop = try WakeupSignal()
        let endpointBox = EndpointBox()
        let server = Thread {
            Self.serve(context: context, stop: stop, endpoint: endpointBox, ready: ready)
        }
        server.start()
        ready.wait()
        guard let endpoint = endpointBox.value else { throw WorkloadError("the echo server could not bind") }

        let dealer = try Socket(context, type: .dealer)
        try dealer.connect(endpoint)
        let clock = ContinuousClock()
        let start = clock.now
        let end = duration.map { start + $0 }
        let limit = requests ?? Int.max
        var sentAt = [ContinuousClock.Instant](repeating: start, count: max(1, inFlight))
        var payload = [UInt8](repeating: 0x61, count: max(bodySize, 8))
        var sent = 0
        var answered = 0

        func send(slot: Int) throws {
            withUnsafeBytes(of: UInt64(slot).littleEndian) { payload.replaceSubrange(0..<8, with: $0) }
            sentAt[slot] = clock.now
            try dealer.send([Frame(payload)])
            results.sent(0)
            sent += 1
        }

        for slot in 0..<min(max(1, inFlight), limit) { try send(slot: slot) }
        var poller = Poller()
        poller.register(dealer)
        while answered < sent {
            // Loopback does not lose messages, but a run that stops hearing back must end rather than wait forever.
            guard try poller.poll(timeout: Self.silenceLimit) > 0 else {
                dealer.close()
                stop.signal()
                throw WorkloadError(
                    "the raw echo went silent for \(Self.silenceLimit) with \(sent - answered) message(s) unanswered")
            }
            while let reply = try dealer.receive(dontWait: true) {
                let bytes = reply.frames.last?.bytes ?? []
                guard bytes.count >= 8 else { continue }
                let slot = Int(bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) })
                guard slot < sentAt.count else { continue }
                answered += 1
                results.answered(0, microseconds: LoadRunner.microseconds(clock.now - sentAt[slot]), errorCode: nil)
                if sent < limit, end.map({ clock.now < $0 }) ?? true { try send(slot: slot) }
            }
        }
        let summary = results.total(elapsed: clock.now - start)
        dealer.close()
        stop.signal()
        return summary
    }

    private static func serve(context: Context, stop: WakeupSignal, endpoint: EndpointBox, ready: DispatchSemaphore) {
        guard let router = try? Socket(context, type: .router), (try? router.bind("tcp://127.0.0.1:0")) != nil else {
            ready.signal()
            return
        }
        endpoint.value = router.lastEndpoint
        ready.signal()
        var poller = Poller()
        let routerItem = poller.register(router)
        let stopItem = poller.register(fileDescriptor: stop.fileDescriptor)
        while (try? poller.poll(timeout: nil)) != nil {
            if poller.ready(stopItem).contains(.readable) { break }
            guard poller.ready(routerItem).contains(.readable) else { continue }
            while let message = try? router.receive(dontWait: true) {
                _ = try? router.send(message.frames)
            }
        }
        router.close()
    }
}

/// The echo server's bound endpoint, written once by its thread before it signals readiness.
final class EndpointBox: @unchecked Sendable {
    var value: String?
}
