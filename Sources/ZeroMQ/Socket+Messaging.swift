import CZeroMQ

/// A whole multipart message as received.
package struct ReceivedMessage: Sendable, Hashable {
    /// The frames kept (at most the receiver's `maxFrames`).
    package var frames: [Frame]
    /// Frames of the same message that were read and thrown away because the message had too many.
    package var discardedFrames: Int
    /// The metadata property asked for (e.g. `User-Id`, set by a ZAP handler), when the connection has it.
    package var metadata: String?

    package init(frames: [Frame], discardedFrames: Int = 0, metadata: String? = nil) {
        self.frames = frames
        self.discardedFrames = discardedFrames
        self.metadata = metadata
    }

    /// Whether the message was cut to the frame limit (and should be treated as garbage by protocol code).
    package var isTruncated: Bool { discardedFrames > 0 }
}

extension Socket {
    /// Sends `frames` as one multipart message (all parts are delivered or none).
    /// - Parameter dontWait: return `false` instead of blocking when the peer's queue is full (EAGAIN).
    /// - Returns: `true` when the message was queued.
    /// - Throws: `ZMQError`, e.g. `.hostUnreachable` from a ROUTER_MANDATORY socket for an unknown peer.
    @discardableResult
    package func send(_ frames: [Frame], dontWait: Bool = false) throws(ZMQError) -> Bool {
        let handle = try requireHandle("send")
        guard !frames.isEmpty else {
            throw ZMQError(errno: EINVAL, operation: "send: a message has at least one frame")
        }
        let baseFlags = dontWait ? ZMQ_DONTWAIT : 0
        for (index, frame) in frames.enumerated() {
            let flags = baseFlags | (index < frames.count - 1 ? ZMQ_SNDMORE : 0)
            let result: Int32
            switch frame.storage {
            case .inline(let inline):
                result = inline.withUnsafeBytes { buffer in zmq_send(handle, buffer.baseAddress, buffer.count, flags) }
            case .array(let bytes):
                result = bytes.withUnsafeBytes { buffer in zmq_send(handle, buffer.baseAddress, buffer.count, flags) }
            case .message(let buffer):
                // libzmq gets a message sharing the received content: no copy of the bytes, whatever their size.
                var message = zmq_msg_t()
                buffer.share(into: &message)
                result = zmq_msg_send(&message, handle, flags)
                if result < 0 { zmq_msg_close(&message) }
            }
            if result < 0 {
                let error = ZMQError.last("send")
                // libzmq accepts the remaining parts once it accepted the first, so only the first can be refused
                // for want of room; any later failure is a real error.
                if error == .again && index == 0 { return false }
                throw error
            }
        }
        return true
    }

    /// Receives one whole multipart message.
    /// - Parameters:
    ///   - maxFrames: frames to keep; the rest of a longer message is read and discarded, so the socket stays
    ///     usable whatever a peer sends.
    ///   - dontWait: return `nil` instead of blocking when no message is waiting.
    ///   - metadataProperty: a connection property to read from the first frame (`User-Id`, `Peer-Address`).
    ///   - cache: where small frames seen before are taken from instead of allocated again (routing ids, headers);
    ///     owned by the receiving thread.
    /// - Returns: the message, or `nil` when none is waiting (`dontWait`) or RCVTIMEO expired.
    package func receive(
        maxFrames: Int = 64, dontWait: Bool = false, metadataProperty: String? = nil, cache: FrameCache? = nil
    ) throws(ZMQError) -> ReceivedMessage? {
        let handle = try requireHandle("receive")
        var frames: [Frame] = []
        // Room for a whole MDP message up front: growing from empty reallocates three times on the way to seven.
        frames.reserveCapacity(8)
        var discarded = 0
        var metadata: String?
        var flags = dontWait ? ZMQ_DONTWAIT : 0
        var message = zmq_msg_t()
        while true {
            zmq_msg_init(&message)
            if zmq_msg_recv(&message, handle, flags) < 0 {
                let error = ZMQError.last("receive")
                zmq_msg_close(&message)
                if error == .again && frames.isEmpty && discarded == 0 { return nil }
                throw error
            }
            // A ROUTER's routing-id frame is made locally and has no connection metadata: take the first frame that has it.
            if let metadataProperty, metadata == nil, let value = zmq_msg_gets(&message, metadataProperty) {
                metadata = String(cString: value)
            }
            // Once the first part has arrived the rest of the message is already here.
            flags = 0
            let more = zmq_msg_more(&message) != 0
            if frames.count < maxFrames {
                // `Array(_:)` rather than `unsafeUninitializedCapacity`, which for an empty frame writes the count into
                // the stdlib's shared empty-array storage, from every I/O thread at once (ThreadSanitizer reports it).
                let bytes = UnsafeRawBufferPointer(start: zmq_msg_data(&message), count: zmq_msg_size(&message))
                if bytes.count > ReceivedMessageBuffer.minimumCount {
                    // A large frame stays in its libzmq message: forwarding it costs no copy.
                    frames.append(Frame(message: ReceivedMessageBuffer(taking: &message)))
                } else if bytes.count <= Frame.inlineCapacity {
                    frames.append(Frame(copying: bytes))
                } else if let cache, bytes.count <= FrameCache.maximumLength {
                    frames.append(cache.frame(bytes))
                } else {
                    frames.append(Frame(Array(bytes)))
                }
            } else {
                discarded += 1
            }
            zmq_msg_close(&message)
            if !more { return ReceivedMessage(frames: frames, discardedFrames: discarded, metadata: metadata) }
        }
    }
}
