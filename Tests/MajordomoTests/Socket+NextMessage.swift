import TallyTesting
import ZeroMQ

extension Socket {
    /// The next message waiting on this socket within `timeout`, polled without blocking: the peers a test plays
    /// against run on the same cooperative pool (a thread per core), which a blocking receive would starve. It looks
    /// once more when `timeout` has passed; the time the busy pool kept this task from running does not count
    /// (`PatientDeadline`).
    func nextMessage(within timeout: Duration) async throws -> ReceivedMessage? {
        var deadline = PatientDeadline(timeout: timeout)
        while !deadline.hasPassed {
            if let message = try receive(dontWait: true) { return message }
            try await deadline.sleep(for: .milliseconds(5))
        }
        return try receive(dontWait: true)
    }
}
