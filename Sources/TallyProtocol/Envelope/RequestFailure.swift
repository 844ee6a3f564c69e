/// A request that cannot be served, with the id to echo when the envelope got far enough to have one.
public struct RequestFailure: Error, Sendable {
    public var id: String?
    public var error: TallyError

    public init(id: String?, error: TallyError) {
        self.id = id
        self.error = error
    }
}
