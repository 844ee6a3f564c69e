import ZeroMQ

/// Frames a client sends on its DEALER.
package enum ClientOutbound {
    /// `"" MDPC01 service body…`.
    package static func request(service: String, body: [Frame]) -> [Frame] {
        var frames: [Frame] = []
        frames.reserveCapacity(3 + body.count)
        frames.append(.empty)
        frames.append(MDP.clientHeader)
        frames.append(Frame(service))
        frames.append(contentsOf: body)
        return frames
    }
}
