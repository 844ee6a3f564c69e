import ZeroMQ

/// What one read of a socket without waiting gave a loop.
enum Received<Message> {
    /// A message, decoded.
    case message(Message)
    /// A message that is not one the loop takes: cut at the frame limit, or refused by the decoder (`reason`).
    /// `sender` is its first frame (a ROUTER's peer), empty when it had none.
    case invalid(sender: Frame, reason: String)
    /// Nothing is waiting.
    case nothing
    /// The socket failed (its context is ending).
    case failed(ZMQError)
}

/// Why a decoder refuses a message it read (beyond what the MDP decoders themselves say).
struct InvalidMessage: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}

extension Socket {
    /// Reads one waiting message within `limits` and decodes it with `decode`: the one receive-and-decode of every
    /// loop. The decoder is handed the only reference to the frame list, so that the body it keeps keeps that
    /// storage rather than a copy; a message cut at `limits.maxFrames` never reaches it.
    /// - Parameters:
    ///   - metadataProperty: the connection property to read with the message (`User-Id` under CURVE), passed to
    ///     `decode`.
    ///   - decode: turns the frames into the loop's message, or throws why it is none (its description is the
    ///     reason).
    func receive<Message>(
        within limits: TransportLimits, cache: FrameCache, metadataProperty: String? = nil,
        decode: (_ frames: consuming [Frame], _ metadata: String?) throws -> Message
    ) -> Received<Message> {
        let received: ReceivedMessage?
        do {
            received = try receive(
                maxFrames: limits.maxFrames, dontWait: true, metadataProperty: metadataProperty, cache: cache)
        } catch {
            return .failed(error)
        }
        // Moved, not copied: a second reference to the frame list would make the decoder's body a copy of it.
        guard var message = consume received else { return .nothing }
        let sender = message.frames.first ?? .empty
        guard !message.isTruncated else {
            return .invalid(sender: sender, reason: "more than \(limits.maxFrames) frames")
        }
        let frames = message.frames
        message.frames = []
        do {
            return .message(try decode(consume frames, message.metadata))
        } catch {
            return .invalid(sender: sender, reason: "\(error)")
        }
    }
}
