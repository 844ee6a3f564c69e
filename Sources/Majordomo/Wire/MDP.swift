import ZeroMQ

/// Constants of the Majordomo Protocol 0.1 (ZeroMQ RFC 7) and the Majordomo Management Interface (RFC 8).
package enum MDP {
    /// Frame 1 of every client message: `MDPC01`.
    package static let clientHeader: Frame = "MDPC01"
    /// Frame 1 of every worker message: `MDPW01`.
    package static let workerHeader: Frame = "MDPW01"
    /// Service names starting with this prefix are answered by the broker itself (RFC 8).
    package static let managementPrefix = "mmi."
    /// The MMI service that reports whether a service has live workers.
    package static let serviceDiscovery = "mmi.service"
    /// Longest service name accepted (the name travels in one short frame).
    package static let maximumServiceNameLength = 255

    /// `head` followed by `body`, in one array allocated at its final size (no variadic list, which would be an
    /// array of its own).
    static func message(_ head: (Frame, Frame, Frame, Frame), body: [Frame]) -> [Frame] {
        message(head, extra: nil, nil, body: body)
    }

    static func message(
        _ head: (Frame, Frame, Frame, Frame), extra first: Frame?, _ second: Frame?, body: [Frame]
    ) -> [Frame] {
        var frames: [Frame] = []
        frames.reserveCapacity(6 + body.count)
        frames.append(head.0)
        frames.append(head.1)
        frames.append(head.2)
        frames.append(head.3)
        if let first { frames.append(first) }
        if let second { frames.append(second) }
        frames.append(contentsOf: body)
        return frames
    }
}

/// The worker protocol's commands (frame 2 of a worker message, one byte).
package enum WorkerCommand: UInt8, Sendable, Hashable, CustomStringConvertible {
    case ready = 0x01
    case request = 0x02
    case reply = 0x03
    case heartbeat = 0x04
    case disconnect = 0x05

    /// The command as its one-byte frame (made once: messages are built with it by the thousand).
    package var frame: Frame { Self.frames[Int(rawValue)] }

    private static let frames: [Frame] = (0...5).map { Frame([UInt8($0)]) }

    package var description: String {
        switch self {
        case .ready: "READY"
        case .request: "REQUEST"
        case .reply: "REPLY"
        case .heartbeat: "HEARTBEAT"
        case .disconnect: "DISCONNECT"
        }
    }
}

/// Why frames are not a valid MDP/0.1 message. Protocol code logs it and drops the message (or disconnects a
/// worker), never trusting the rest of such a message.
package enum MajordomoDecodeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Fewer frames than the message needs.
    case missingFrames(expected: Int, got: Int)
    /// Frames left over after the message was read.
    case unexpectedFrames(Int)
    /// The delimiter frame before the header is not empty.
    case missingDelimiter
    /// The header is neither `MDPC01` nor `MDPW01` (or not the one expected here).
    case unknownHeader(Frame)
    /// A worker command byte that is not 0x01...0x05, or not valid in this direction.
    case unknownCommand(Frame)
    /// A service name that is empty, too long or not UTF-8.
    case invalidServiceName
    /// The message had more frames than the receiver accepts.
    case tooManyFrames
    /// READY's optional capabilities frame is not `key=value` pairs of printable ASCII (`WorkerCapabilities`).
    case invalidCapabilities

    package var description: String {
        switch self {
        case .missingFrames(let expected, let got): "expected at least \(expected) frames, got \(got)"
        case .unexpectedFrames(let count): "\(count) unexpected trailing frame(s)"
        case .missingDelimiter: "the frame before the protocol header must be empty"
        case .unknownHeader(let frame): "unknown protocol header \(frame)"
        case .unknownCommand(let frame): "unknown or misplaced worker command \(frame)"
        case .invalidServiceName: "service name must be 1...\(MDP.maximumServiceNameLength) bytes of UTF-8"
        case .tooManyFrames: "too many frames"
        case .invalidCapabilities:
            "the READY capabilities frame must be key=value pairs of printable ASCII (at most \(WorkerCapabilities.maximumLength) bytes)"
        }
    }
}

extension MDP {
    /// `frames` without its first `count`: the body of a decoded message. In place when `frames` is the only
    /// reference to its storage (a received message handed over whole), so the body costs no new list.
    static func dropping(_ count: Int, of frames: consuming [Frame]) -> [Frame] {
        frames.removeFirst(count)
        return frames
    }

    /// Reads a service-name frame.
    static func serviceName(_ frame: Frame) throws(MajordomoDecodeError) -> String {
        guard !frame.isEmpty, frame.count <= maximumServiceNameLength, let name = frame.text else {
            throw .invalidServiceName
        }
        return name
    }

    /// Reads a worker command frame (one byte): the broker reads it from workers, workers from the broker.
    static func workerCommand(_ frame: Frame) throws(MajordomoDecodeError) -> WorkerCommand {
        guard frame.count == 1, let command = WorkerCommand(rawValue: frame.withUnsafeBytes { $0[0] }) else {
            throw .unknownCommand(frame)
        }
        return command
    }

    /// Reads `client "" body…` from frame `index` on: the end of a worker REPLY as the broker receives it and of a
    /// REQUEST as a worker receives it. The body keeps the storage of `frames` as ``dropping(_:of:)`` does. Always
    /// inlined, as the decoding it replaced was: it runs on every reply the broker and every request a worker gets.
    @inline(__always)
    static func clientAndBody(
        from index: Int, of frames: consuming [Frame]
    ) throws(MajordomoDecodeError) -> (client: Frame, body: [Frame]) {
        guard frames.count >= index + 2 else { throw .missingFrames(expected: index + 2, got: frames.count) }
        guard frames[index + 1].isEmpty else { throw .missingDelimiter }
        let client = frames[index]
        return (client, dropping(index + 2, of: consume frames))
    }
}
