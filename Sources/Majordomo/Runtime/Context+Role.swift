import ZeroMQ

extension Context {
    /// The context a role (broker, worker, client) runs its sockets on: the one its caller shares with it (a test
    /// putting several roles in one process, an `inproc://` endpoint), or else one of its own, which lives as long
    /// as the role's sockets do.
    static func forRole(given context: Context?) throws(ZMQError) -> Context {
        if let context { return context }
        return try Context()
    }
}
