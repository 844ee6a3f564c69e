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
