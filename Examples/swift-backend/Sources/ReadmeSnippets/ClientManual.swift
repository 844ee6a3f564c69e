// More snippets of the TallyClient manual (Sources/TallyClient/TallyClient.docc), line for line, so that the build
// checks them: calling every method, several brokers, CURVE and tracing. None of them runs.

import Foundation
import Logging
import TallyClient
import TallyProtocol

/// One place that logs every call to Tally, whichever the method.
func callTally<M: TallyMethod>(
    _ method: M.Type, _ params: M.Params, on tally: TallyClient, logger: Logger
) async throws(TallyClientError) -> M.Result {
    logger.debug("calling Tally", metadata: ["tally.method": "\(M.name)"])
    return try await tally.call(method, params)
}

/// A raw body, for tools.
func sendARawBody(tally: TallyClient) async throws {
    let body = Array(#"{"version": 1, "id": "probe-1", "method": "system.ping"}"#.utf8)
    let reply = try await tally.send(rawBody: body, service: "tally.streak", retries: 0)
    print(String(decoding: reply, as: UTF8.self))
}

/// Health checks and discovery.
func checkHealth(tally: TallyClient) async throws {
    let pong = try await tally.ping(service: .streak)  // a live worker answered on tally.streak
    print(pong.serverVersion, pong.worker)
    let served = try await tally.describe(service: .workout)  // what that worker serves there
    print(served.methods.map(\.name))
    let available = try await tally.isServiceAvailable("tally.history")  // the broker's view, without a worker
    print(available)
}

/// Several brokers, and how their connections stand.
func watchTheBrokers() async throws {
    let configuration = TallyClientConfiguration(brokers: ["tcp://tally-a:5555", "tcp://tally-b:5555"])
    try await withTallyClient(configuration) { tally in
        for broker in await tally.brokerConnections() {
            // "tcp://tally-a:5555: connected for 42.0 s", and how many times it was lost
            print(broker.status, broker.isConnected, broker.losses)
        }
    }
}

/// CURVE from keys held as text.
func curveFromKeys(brokerPublicKey: String, clientPublicKey: String, clientSecretKey: String) {
    var configuration = TallyClientConfiguration(brokers: ["tcp://tally:5555"])
    configuration.security = .curve(
        serverPublicKey: brokerPublicKey, clientPublicKey: clientPublicKey, clientSecretKey: clientSecretKey)
    _ = configuration
}

/// A trace context of the caller's own.
func sendATrace(tally: TallyClient, params: StreakSummary.Params) async throws {
    let trace = TraceContext(traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
    let summary = try await tally.streakSummary(params, trace: trace)
    print(summary.status)
}
