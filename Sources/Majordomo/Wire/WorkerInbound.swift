import ZeroMQ

/// A message as a worker's DEALER receives it from the broker.
package enum WorkerInbound: Sendable, Hashable {
    /// `"" MDPW01 0x02 client "" body…`.
    case request(client: Frame, body: [Frame])
    /// `"" MDPW01 0x04`.
    case heartbeat
    /// `"" MDPW01 0x05`.
    case disconnect

    /// Decodes a whole message; every frame must be accounted for. The body keeps the storage of `frames` when the
    /// caller hands over its only reference.
    package init(frames: consuming [Frame]) throws(MajordomoDecodeError) {
        guard frames.count >= 3 else { throw .missingFrames(expected: 3, got: frames.count) }
        guard frames[0].isEmpty else { throw .missingDelimiter }
        guard frames[1] == MDP.workerHeader else { throw .unknownHeader(frames[1]) }
        let command = try MDP.workerCommand(frames[2])
        switch command {
        case .request:
            let (client, body) = try MDP.clientAndBody(from: 3, of: consume frames)
            self = .request(client: client, body: body)
        case .heartbeat, .disconnect:
            guard frames.count == 3 else { throw .unexpectedFrames(frames.count - 3) }
            self = command == .heartbeat ? .heartbeat : .disconnect
        case .ready, .reply:
            throw .unknownCommand(frames[2])
        }
    }
}

/// Frames a worker sends on its DEALER.
package enum WorkerOutbound {
    /// `"" MDPW01 0x01 service`, plus Tally's capabilities frame when `capabilities` is given.
    package static func ready(service: String, capabilities: WorkerCapabilities? = nil) -> [Frame] {
        let plain: [Frame] = [.empty, MDP.workerHeader, WorkerCommand.ready.frame, Frame(service)]
        return capabilities.map { plain + [$0.frame] } ?? plain
    }

    /// `"" MDPW01 0x03 client "" body…`.
    package static func reply(client: Frame, body: [Frame]) -> [Frame] {
        MDP.message((.empty, MDP.workerHeader, WorkerCommand.reply.frame, client), extra: .empty, nil, body: body)
    }

    /// `"" MDPW01 0x04`.
    package static let heartbeat: [Frame] = [.empty, MDP.workerHeader, WorkerCommand.heartbeat.frame]

    /// `"" MDPW01 0x05`.
    package static let disconnect: [Frame] = [.empty, MDP.workerHeader, WorkerCommand.disconnect.frame]
}
