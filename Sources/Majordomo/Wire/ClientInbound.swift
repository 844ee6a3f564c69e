import ZeroMQ

/// A reply as a client's DEALER receives it: `"" MDPC01 service body…`.
package struct ClientInbound: Sendable, Hashable {
    package var service: String
    package var body: [Frame]

    package init(service: String, body: [Frame]) {
        self.service = service
        self.body = body
    }

    /// Decodes a whole reply. The body keeps the storage of `frames` when the caller hands over its only reference.
    package init(frames: consuming [Frame]) throws(MajordomoDecodeError) {
        guard frames.count >= 3 else { throw .missingFrames(expected: 3, got: frames.count) }
        guard frames[0].isEmpty else { throw .missingDelimiter }
        guard frames[1] == MDP.clientHeader else { throw .unknownHeader(frames[1]) }
        service = try MDP.serviceName(frames[2])
        body = MDP.dropping(3, of: consume frames)
    }
}
