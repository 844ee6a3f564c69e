import Foundation
import TallyClient
import TallyTesting

/// A started client for `endpoints`.
func makeClient(_ endpoints: [String], timeout: Duration = .seconds(10), retries: Int = 2) throws -> TallyClient {
    var configuration = TallyClientConfiguration(brokers: endpoints)
    configuration.timeout = timeout
    configuration.retries = retries
    let client = try TallyClient(configuration: configuration)
    try client.start()
    return client
}

/// Waits until the broker reports a live worker for every one of `services`.
func waitForServices(
    _ client: TallyClient, _ services: [String] = ["tally.history", "tally.streak", "tally.workout"]
) async -> Bool {
    await eventually(timeout: .seconds(20)) {
        for service in services {
            guard (try? await client.isServiceAvailable(service, timeout: .seconds(1))) == true else { return false }
        }
        return true
    }
}

/// The pid part of a `system.ping` worker name (`host/pid`).
func pid(of worker: String) -> Int32? {
    worker.split(separator: "/").last.flatMap { Int32($0) }
}

extension ManagedProcess {
    /// The JSON object the process printed on standard output, once its output has been read to the end.
    func jsonOutput() async throws -> [String: Any] {
        var parsed: [String: Any]?
        _ = await eventually(timeout: .seconds(5)) {
            let text = output.joined(separator: "\n")
            parsed = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            return parsed != nil
        }
        guard let parsed else { throw ProcessError("\(name) printed no JSON: \(output)") }
        return parsed
    }
}
