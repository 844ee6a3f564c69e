import Foundation
import Synchronization
import TallyProtocol
import Testing
import ZeroMQ

/// A bare MDP/0.1 worker that breaks the reply rules on purpose, as a buggy or hostile worker would: it registers,
/// heartbeats and answers every request with a well-formed v1 result, but sends one of its replies wrongly. When
/// the broker drops it (DISCONNECT) it reconnects and registers again, so it keeps being given requests.
///
/// - Important: `run` blocks until `stop()`; run it on its own thread (`onOwnThread`).
final class MisbehavingWorker: Sendable {
    enum Fault: String, Sendable, CaseIterable, CustomTestStringConvertible {
        /// Sends each reply twice: the second crosses the next request it is given.
        case repliesTwice
        /// Addresses its reply to invented bytes instead of the request's address.
        case forgesAddress
        /// Answers each request with the reply it built for the previous one (another client's data).
        case answersWithPreviousReply
        /// The same with replies larger than a frame the broker copies (`ReceivedMessageBuffer.minimumCount`): the
        /// broker reads their ids in the libzmq message they arrived in.
        case answersWithPreviousLargeReply
        /// Takes a request, then falls silent (no heartbeat, nothing read) for `silence`, as a stalled process does,
        /// and then sends its reply all the same: on a connection that stayed up, to a broker that gave it up.
        case goesSilentThenReplies

        var testDescription: String { rawValue }

        /// The faults that send a wrong reply on a connection the broker still knows.
        static let wrongReplies: [Fault] = [
            .repliesTwice, .forgesAddress, .answersWithPreviousReply, .answersWithPreviousLargeReply,
        ]
    }

    /// How long `goesSilentThenReplies` is silent: longer than the broker's patience with quick heartbeats (1 s).
    static let silence: Duration = .seconds(2)

    /// What the worker did, for the test to check that the fault was exercised.
    struct Activity: Sendable {
        var requests = 0
        var registrations = 0
    }

    let endpoint: String
    let service: String
    let fault: Fault
    private let stopped = Atomic(false)

    init(endpoint: String, service: String, fault: Fault) {
        self.endpoint = endpoint
        self.service = service
        self.fault = fault
    }

    func stop() { stopped.store(true, ordering: .relaxed) }

    func run() throws -> Activity {
        let context = try Context()
        var activity = Activity()
        var previousReply: Frame?
        var socket = try register(context, &activity)
        var nextHeartbeat = ContinuousClock.now
        while !stopped.load(ordering: .relaxed) {
            if ContinuousClock.now >= nextHeartbeat {
                _ = try socket.send(["", "MDPW01", Frame([0x04])], dontWait: true)
                nextHeartbeat = ContinuousClock.now + .milliseconds(100)
            }
            guard let frames = try socket.receive(maxFrames: 16)?.frames, frames.count >= 3 else { continue }
            switch frames[2] {
            case Frame([0x05]):
                socket.close()
                socket = try register(context, &activity)
            case Frame([0x02]) where frames.count >= 6:
                activity.requests += 1
                let address = frames[3]
                let id = EnvelopeScanner.id(in: frames[5].bytes) ?? "?"
                let padding = fault == .answersWithPreviousLargeReply ? String(repeating: "x", count: 20_000) : ""
                let reply = Frame(
                    #"{"version":1,"id":"\#(id)","result":{"worker":"misbehaving","padding":"\#(padding)"}}"#)
                switch fault {
                case .repliesTwice:
                    _ = try socket.send(["", "MDPW01", Frame([0x03]), address, "", reply])
                    _ = try socket.send(["", "MDPW01", Frame([0x03]), address, "", reply])
                case .forgesAddress:
                    let forged = Frame((0..<8).map { _ in UInt8.random(in: 0...255) })
                    _ = try socket.send(["", "MDPW01", Frame([0x03]), forged, "", reply])
                case .answersWithPreviousReply, .answersWithPreviousLargeReply:
                    _ = try socket.send(["", "MDPW01", Frame([0x03]), address, "", previousReply ?? reply])
                case .goesSilentThenReplies:
                    Thread.sleep(forTimeInterval: Double(Self.silence.components.seconds))
                    _ = try socket.send(["", "MDPW01", Frame([0x03]), address, "", reply])
                }
                previousReply = reply
            default:
                continue
            }
        }
        socket.close()
        return activity
    }

    private func register(_ context: Context, _ activity: inout Activity) throws -> Socket {
        let socket = try Socket(context, type: .dealer)
        try socket.set(.linger, .zero)
        try socket.set(.receiveTimeout, .milliseconds(50))
        try socket.connect(endpoint)
        _ = try socket.send(["", "MDPW01", Frame([0x01]), Frame(service)])
        activity.registrations += 1
        return socket
    }
}
