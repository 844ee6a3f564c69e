import ZeroMQ

/// What a worker tells the broker beyond MDP/0.1, in an optional fifth frame of READY.
///
/// RFC 7's READY has four frames; a Tally worker may add a fifth of ASCII `key=value` pairs separated by single
/// spaces (`instance=5f2c9a0e1b3d4c7a credit=8 name=db1/4242`). A Tally broker reads it; a lenient foreign broker ignores it,
/// and for a strict one the worker falls back to the plain four-frame READY (see `WorkerSession`). Keys this broker
/// does not know are ignored, so a later worker may say more without breaking an older broker.
package struct WorkerCapabilities: Sendable, Hashable {
    /// Names the worker process. Connections with one instance live and die together: the broker uses it to
    /// give a request that lost its worker a process of its own (see `BrokerStateMachine`).
    package var instance: String?
    /// How many requests the connection takes at once. MDP/0.1 allows one; with more, the broker pipelines
    /// requests on the connection (and the worker reads and answers them in batches). A broker that does not know
    /// the key sends one at a time, which is still correct.
    package var credit: Int?
    /// What an operator calls the process: `host/pid`, as `system.ping` names it. Shown by the broker's console;
    /// it identifies nothing (`instance` does), so it is cut to `maximumNameLength` bytes and any byte a frame may
    /// not carry becomes `?`, on both ends: a long host name never costs a worker its registration.
    package var name: String?

    package init(instance: String? = nil, credit: Int? = nil, name: String? = nil) {
        self.instance = instance
        self.credit = credit
        self.name = name.map(Self.wireName)
    }

    /// Longest capabilities frame accepted.
    package static let maximumLength = 255
    /// Longest `name` kept, in bytes.
    package static let maximumNameLength = 64

    /// `name` as the frame can carry it: printable ASCII without spaces, at most `maximumNameLength` bytes.
    static func wireName(_ name: String) -> String {
        let bytes = name.utf8.prefix(maximumNameLength).map { $0 > 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The frame a worker sends.
    package var frame: Frame {
        var pairs: [String] = []
        if let instance { pairs.append("instance=\(instance)") }
        if let credit { pairs.append("credit=\(credit)") }
        if let name { pairs.append("name=\(name)") }
        return Frame(pairs.joined(separator: " "))
    }

    /// Reads a capabilities frame.
    /// - Throws: `MajordomoDecodeError.invalidCapabilities` when the frame is too long, not printable ASCII, or
    ///   not `key=value` pairs with non-empty keys and values.
    package init(frame: Frame) throws(MajordomoDecodeError) {
        guard frame.count <= Self.maximumLength, frame.bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F || $0 == 0x20 })
        else { throw .invalidCapabilities }
        self.init()
        for pair in frame.bytes.split(separator: 0x20, omittingEmptySubsequences: false) {
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")), equals > pair.startIndex,
                equals < pair.index(before: pair.endIndex)
            else { throw .invalidCapabilities }
            let key = String(decoding: pair[..<equals], as: UTF8.self)
            let value = String(decoding: pair[pair.index(after: equals)...], as: UTF8.self)
            switch key {
            case "instance": instance = value
            case "credit":
                guard let number = Int(value), number >= 1 else { throw .invalidCapabilities }
                credit = number
            case "name": name = Self.wireName(value)
            default: break
            }
        }
    }
}
