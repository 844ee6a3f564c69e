/// A request that cannot be served, with the id to echo when the envelope got far enough to have one.
public struct RequestFailure: Error, Sendable {
    public var id: String?
    public var error: TallyError
    /// The method, when it is one the worker serves (its params were bad): for logs and metrics. `nil` for an
    /// unknown method, whose name is the client's text and must not become a metrics label.
    public var method: String?

    public init(id: String?, error: TallyError, method: String? = nil) {
        self.id = id
        self.error = error
        self.method = method
    }
}
