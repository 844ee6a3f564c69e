/// Polls `condition` every 20 ms until it holds or `timeout` passes (not counting the time the waiting task was kept
/// from running: see ``PatientDeadline``); returns whether it held. A cancelled task checks once more and returns.
package func eventually(timeout: Duration = .seconds(10), _ condition: () async -> Bool) async -> Bool {
    var deadline = PatientDeadline(timeout: timeout)
    while !deadline.hasPassed {
        if await condition() { return true }
        do {
            try await deadline.sleep(for: .milliseconds(20))
        } catch {
            break
        }
    }
    return await condition()
}
