/// A whole request as a client sends it: the envelope with typed params.
public struct RequestEnvelope<Params: Encodable & Sendable>: Encodable, Sendable {
    /// Every member of the envelope but `params`: the version, the id, the method, the deadline and the trace.
    public var head: RequestHead
    /// The method's params, written as `params`.
    public var params: Params

    /// The request that `head` and `params` make.
    public init(head: RequestHead, params: Params) {
        self.head = head
        self.params = params
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: RequestHead.CodingKeys.self)
        try container.encode(head.version, forKey: .version)
        try container.encode(head.id, forKey: .id)
        try container.encode(head.method, forKey: .method)
        // Before the params: the broker reads `trace` for its log lines from the start of the body only.
        try container.encodeIfPresent(head.trace, forKey: .trace)
        try container.encode(params, forKey: .params)
        try container.encodeIfPresent(head.deadline, forKey: .deadline)
    }
}
