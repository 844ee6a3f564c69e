import ZeroMQ

/// What the broker writes in a REQUEST's client-address frame instead of the client's routing id: a number that
/// names one dispatch of one request.
///
/// An MDP/0.1 worker treats that frame as opaque and echoes it in its REPLY, so every worker serves as before. For
/// the broker it turns "whose request does this reply answer?" from trust into a lookup: a reply is delivered only
/// when its token names a request that the replying connection holds right now. A duplicate reply (its token is
/// spent), invented bytes, or another dispatch's token can never reach a client.
struct DispatchToken: Hashable, Sendable {
    let value: UInt64

    init(_ value: UInt64) {
        self.value = value
    }

    /// Eight bytes, big-endian.
    var frame: Frame {
        Frame(bigEndian: value)
    }

    /// The token a reply's address frame names, or `nil` when the frame cannot be one.
    init?(frame: Frame) {
        guard frame.count == 8 else { return nil }
        value = frame.withUnsafeBytes { $0.reduce(0) { $0 << 8 | UInt64($1) } }
    }
}
