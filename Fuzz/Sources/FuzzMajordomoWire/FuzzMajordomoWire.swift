import Majordomo
import ZeroMQ

/// libFuzzer entry point: the input is a list of frames, each a length byte (255: a two-byte big-endian length
/// follows) and that many bytes. The frames go through every MDP decoder, must round-trip through the matching
/// encoder when they decode, and are fed to a broker state machine that holds one client's request, which must
/// then be answered exactly once whatever the message did.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMajordomoWire(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let frames = WireFuzzInput.frames(from: UnsafeBufferPointer(start: data, count: size))
    WireFuzzInput.checkRoundTrips(frames)
    WireFuzzInput.checkExactlyOneAnswer(after: frames)
    return 0
}

enum WireFuzzInput {
    static func frames(from bytes: UnsafeBufferPointer<UInt8>) -> [Frame] {
        var frames: [Frame] = []
        var index = 0
        while index < bytes.count, frames.count < 64 {
            var length = Int(bytes[index])
            index += 1
            if length == 255, index + 1 < bytes.count {
                length = Int(bytes[index]) << 8 | Int(bytes[index + 1])
                index += 2
            }
            let end = min(bytes.count, index + length)
            frames.append(Frame(Array(bytes[index..<end])))
            index = end
        }
        return frames
    }

    /// A decoded message re-encodes to exactly the frames it came from: nothing is lost or invented. READY's
    /// capabilities frame is the one exception: keys the broker does not know are dropped by design (a later
    /// worker may say more), a repeated key keeps its last value and numbers are written back canonically
    /// (`credit=08` → `credit=8`), so there the decoded value must re-encode to a frame that decodes to the same
    /// value.
    static func checkRoundTrips(_ frames: [Frame]) {
        if let message = try? BrokerInbound(frames: frames), case .ready(let service, let capabilities?) = message.message {
            // Only unknown keys: nothing to say, which no frame says (an empty one is refused).
            precondition(
                capabilities == WorkerCapabilities() || (try? WorkerCapabilities(frame: capabilities.frame)) == capabilities,
                "WorkerCapabilities does not round-trip as a value")
            let encoded = [message.sender] + WorkerOutbound.ready(service: service, capabilities: capabilities)
            precondition(
                encoded.count == frames.count && encoded.dropLast() == frames.dropLast(),
                "READY with capabilities does not round-trip")
        } else if let message = try? BrokerInbound(frames: frames) {
            let sender = [message.sender]
            let encoded: [Frame] =
                switch message.message {
                case .request(let service, let body): sender + ClientOutbound.request(service: service, body: body)
                case .ready(let service, let capabilities):
                    sender + WorkerOutbound.ready(service: service, capabilities: capabilities)
                case .reply(let client, let body): sender + WorkerOutbound.reply(client: client, body: body)
                case .heartbeat: sender + WorkerOutbound.heartbeat
                case .disconnect: sender + WorkerOutbound.disconnect
                }
            precondition(encoded == frames, "BrokerInbound does not round-trip")
        }
        if let message = try? WorkerInbound(frames: frames) {
            let encoded: [Frame] =
                switch message {
                case .request(let client, let body):
                    Array(BrokerOutbound.workerRequest(to: .empty, client: client, body: body).dropFirst())
                case .heartbeat: Array(BrokerOutbound.heartbeat(to: .empty).dropFirst())
                case .disconnect: Array(BrokerOutbound.disconnect(to: .empty).dropFirst())
                }
            precondition(encoded == frames, "WorkerInbound does not round-trip")
        }
        if let reply = try? ClientInbound(frames: frames) {
            precondition(
                ClientOutbound.request(service: reply.service, body: reply.body) == frames,
                "ClientInbound does not round-trip")
        }
    }

    /// Worker `W` serves `svc` and holds client `C`'s request; then the fuzzed message arrives, time passes
    /// beyond every timeout and the broker finishes. `C` must have had exactly one answer.
    static func checkExactlyOneAnswer(after frames: [Frame]) {
        let client: Frame = "C"
        guard frames.first != client else { return }  // C's own extra requests would be answered too
        var configuration = BrokerConfiguration()
        configuration.maxAttempts = 2
        var machine = BrokerStateMachine(
            configuration: configuration, envelope: OpaqueEnvelope(), now: .zero)
        var actions = machine.received(
            BrokerInbound(sender: "W", message: .ready(service: "svc", capabilities: nil)), now: .zero)
        actions += machine.received(
            BrokerInbound(sender: client, message: .request(service: "svc", body: ["x"])), now: .zero)
        let now = Duration.seconds(1)
        do {
            actions += machine.received(try BrokerInbound(frames: frames), now: now)
        } catch {
            actions += machine.receivedInvalid(from: frames.first ?? .empty, reason: error.description, now: now)
        }
        actions += machine.tick(now: .seconds(1000))
        actions += machine.finish()
        let answers = actions.filter { action in
            guard case .send(let out) = action else { return false }
            return out.count > 2 && out[0] == client && out[2] == MDP.clientHeader
        }
        precondition(answers.count == 1, "client C got \(answers.count) answers")
    }
}
