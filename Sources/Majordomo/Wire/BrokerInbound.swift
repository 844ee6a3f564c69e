import ZeroMQ

/// A message as the broker's ROUTER socket receives it: the sender's routing id, then an MDP client or worker
/// message.
package struct BrokerInbound: Sendable, Hashable {
    /// The ROUTER routing id of the sending connection.
    package var sender: Frame
    package var message: Message

    package enum Message: Sendable, Hashable {
        /// `"" MDPC01 service body…` from a client.
        case request(service: String, body: [Frame])
        /// `"" MDPW01 0x01 service [capabilities]`: the fifth frame is Tally's extension (`WorkerCapabilities`).
        case ready(service: String, capabilities: WorkerCapabilities?)
        /// `"" MDPW01 0x03 client "" body…`.
        case reply(client: Frame, body: [Frame])
        /// `"" MDPW01 0x04`.
        case heartbeat
        /// `"" MDPW01 0x05`.
        case disconnect
    }

    package init(sender: Frame, message: Message) {
        self.sender = sender
        self.message = message
    }

    /// Decodes a whole message as received on the broker's ROUTER (routing id first). Every frame is accounted
    /// for: a message with frames left over is refused, not half-read. The body keeps the storage of `frames` when
    /// the caller hands over its only reference (no copy of the frame list per message).
    package init(frames: consuming [Frame]) throws(MajordomoDecodeError) {
        guard frames.count >= 3 else { throw .missingFrames(expected: 3, got: frames.count) }
        sender = frames[0]
        guard frames[1].isEmpty else { throw .missingDelimiter }
        switch frames[2] {
        case MDP.clientHeader:
            guard frames.count >= 4 else { throw .missingFrames(expected: 4, got: frames.count) }
            let service = try MDP.serviceName(frames[3])
            message = .request(service: service, body: MDP.dropping(4, of: consume frames))
        case MDP.workerHeader:
            guard frames.count >= 4 else { throw .missingFrames(expected: 4, got: frames.count) }
            let command = try MDP.workerCommand(frames[3])
            switch command {
            case .ready:
                guard frames.count >= 5 else { throw .missingFrames(expected: 5, got: frames.count) }
                guard frames.count <= 6 else { throw .unexpectedFrames(frames.count - 6) }
                message = .ready(
                    service: try MDP.serviceName(frames[4]),
                    capabilities: frames.count == 6 ? try WorkerCapabilities(frame: frames[5]) : nil)
            case .reply:
                let (client, body) = try MDP.clientAndBody(from: 4, of: consume frames)
                message = .reply(client: client, body: body)
            case .heartbeat, .disconnect:
                guard frames.count == 4 else { throw .unexpectedFrames(frames.count - 4) }
                message = command == .heartbeat ? .heartbeat : .disconnect
            case .request:
                throw .unknownCommand(frames[3])
            }
        default:
            throw .unknownHeader(frames[2])
        }
    }
}

/// Frames the broker sends, routing id first.
package enum BrokerOutbound {
    /// A reply to a client: `client "" MDPC01 service body…`.
    package static func clientReply(to client: Frame, service: String, body: [Frame]) -> [Frame] {
        clientReply(to: client, service: Frame(service), body: body)
    }

    /// A reply to a client whose service frame is at hand (the broker keeps one per service).
    package static func clientReply(to client: Frame, service: Frame, body: [Frame]) -> [Frame] {
        MDP.message((client, .empty, MDP.clientHeader, service), body: body)
    }

    /// A worker's reply on its way to the client, `client "" MDPC01 service body…`, made in the storage of the
    /// received message when the body holds its only reference (the four head frames go in front of the body,
    /// where the worker's six were: no new list per reply).
    package static func forwardedReply(to client: Frame, service: Frame, body: consuming [Frame]) -> [Frame] {
        var frames = body
        frames.replaceSubrange(0..<0, with: CollectionOfFour(client, .empty, MDP.clientHeader, service))
        return frames
    }

    /// A request to a worker: `worker "" MDPW01 0x02 client "" body…`.
    package static func workerRequest(to worker: Frame, client: Frame, body: [Frame]) -> [Frame] {
        MDP.message(
            (worker, .empty, MDP.workerHeader, WorkerCommand.request.frame), extra: client, .empty, body: body)
    }

    /// `worker "" MDPW01 0x04`.
    package static func heartbeat(to worker: Frame) -> [Frame] {
        [worker, .empty, MDP.workerHeader, WorkerCommand.heartbeat.frame]
    }

    /// `worker "" MDPW01 0x05`.
    package static func disconnect(to worker: Frame) -> [Frame] {
        [worker, .empty, MDP.workerHeader, WorkerCommand.disconnect.frame]
    }
}
