import ZeroMQ

extension Socket {
    /// The next message waiting on this socket within `timeout`, polled without blocking: the peers a test plays
    /// against run on the same cooperative pool (a thread per core), which a blocking receive would starve. It looks
    /// once more when `timeout` has passed, so that a task the busy pool did not run again until then still sees what
    /// arrived in time.
    func nextMessage(within timeout: Duration) async throws -> ReceivedMessage? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let message = try receive(dontWait: true) { return message }
            try await Task.sleep(for: .milliseconds(5))
        }
        return try receive(dontWait: true)
    }
}
