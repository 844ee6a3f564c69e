/// A request that cannot be served, with the id to echo when the envelope got far enough to have one.
public struct RequestFailure: Error, Sendable {
    /// The request's id, echoed in the error response; `nil` (`null` there) when it could not be read.
    public var id: String?
    /// The error the request is answered with.
    public var error: TallyError
    /// The method, when it is one the worker serves (its params were bad): for logs and metrics. `nil` for an
    /// unknown method, whose name is the client's text and must not become a metrics label.
    public var method: String?

    /// A failure answered with `error` for the request `id`; `method` only when the worker serves it.
    public init(id: String?, error: TallyError, method: String? = nil) {
        self.id = id
        self.error = error
        self.method = method
    }
}
