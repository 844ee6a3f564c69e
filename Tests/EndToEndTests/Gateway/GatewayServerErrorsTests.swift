import Foundation
import Logging
import Majordomo
import TallyClient
import TallyJSONCoding
import TallyProtocol
import TallyTesting
import Testing
import ZeroMQ

/// The codes the broker and the workers answer when they cannot compute: `overloaded` (429 with `Retry-After`),
/// `unavailable` (503), `deadline_exceeded` (504), `internal` (500), and a code this build does not know (500, as
/// the protocol asks of clients), each with the v1 body as the broker or worker wrote it.
@Suite(.realProcesses) struct GatewayServerErrorsTests {
    /// A worker that answers every request on `service` with the error its params name
    /// (`{"code": …, "message": …}`): the reply's bytes are what the gateway must pass on.
    static func scriptedWorker(endpoint: String, service: String) throws -> MajordomoWorker {
        var configuration = WorkerConfiguration(brokers: [endpoint], services: [service])
        configuration.concurrency = 4
        let worker = try MajordomoWorker(
            configuration: configuration, logger: Logger(label: "scripted-worker"),
            computation: .onIOThread { request in
                let body = request.body.first?.bytes ?? []
                let id = EnvelopeScanner.id(in: body) ?? "?"
                let params = (try? TallyJSONDecoder().decode(JSONValue.self, from: body))?["params"]
                let code = params?["code"]?.string ?? "internal"
                return [
                    Frame(
                        #"{"version":1,"id":"\#(id)","error":{"code":"\#(code)","message":"scripted","details":{"service":"\#(service)"}}}"#
                    )
                ]
            })
        try worker.start()
        return worker
    }

    @Test func serverErrorsKeepTheirBodyUnderTheirStatus() async throws {
        let brokerHTTP = ProcessProbes.freeLoopbackAddress()
        // tally.history computes one request at a time, slowly; tally.workout has no worker (and no grace);
        // tally.streak is answered by the scripted worker.
        let cluster = try await TallyCluster.start(
            workers: 0, brokerArguments: ["--max-queue", "1", "--service-grace", "0ms", "--http", brokerHTTP])
        let worker = try await TallyCluster.startWorker(
            endpoint: cluster.endpoint,
            arguments: ["--service", "tally.history", "--concurrency", "1", "--simulated-latency", "1500ms"])
        let scripted = try Self.scriptedWorker(endpoint: cluster.endpoint, service: "tally.streak")
        let gateway = try await GatewayProcess.start(brokers: [cluster.endpoint], arguments: ["--retries", "0"])
        let client = try makeClient([cluster.endpoint], retries: 0)
        #expect(await waitForServices(client, ["tally.history", "tally.streak"]))
        let connection = try gateway.connect()
        func holds(_ gauge: String) async -> Bool {
            ProcessProbes.total(gauge, in: await ProcessProbes.metrics(at: brokerHTTP) ?? "") >= 1
        }

        // internal and an unknown code: 500, the worker's reply byte for byte (its id is the wire id).
        for code in ["internal", "a_code_from_the_future"] {
            let answer = try await connection.post("/v1/streak.summary", Array(#"{"code":"\#(code)"}"#.utf8))
            #expect(answer.status == 500, "\(answer.text)")
            let id = try #require(answer.headers["tally-request-id"])
            #expect(
                answer.text
                    == #"{"version":1,"id":"\#(id)","error":{"code":"\#(code)","message":"scripted","details":{"service":"tally.streak"}}}"#
            )
        }
        // unavailable: no worker serves tally.workout.
        try GatewayErrorsTests.expectError(
            try await connection.post("/v1/workout.day", Array("{}".utf8)), "unavailable")
        // deadline_exceeded: the caller gives 200 ms to a request that takes 1.5 s.
        let late = try await connection.post("/v1/system.ping", [], headers: [("Request-Timeout", "200ms")])
        try GatewayErrorsTests.expectError(late, "deadline_exceeded")
        _ = await eventually(timeout: .seconds(10)) { !(await holds("tally_broker_in_flight_requests")) }

        // overloaded: one request computing, one queued, the third refused: each sent once the broker holds the one
        // before, as its gauges say.
        let first = try gateway.connect()
        let second = try gateway.connect()
        async let computing = first.post("/v1/system.ping", [])
        _ = await eventually { await holds("tally_broker_in_flight_requests") }
        async let queued = second.post("/v1/system.ping", [])
        _ = await eventually { await holds("tally_broker_queued_requests") }
        let refused = try await connection.post("/v1/system.ping", [])
        let body = try GatewayErrorsTests.expectError(refused, "overloaded")
        let retryAfter = try #require(body["error"]?["details"]?["retry_after_ms"]?.number)
        #expect(refused.headers["retry-after"] == String((Int(retryAfter) + 999) / 1000), "\(refused.headers)")
        #expect(try await computing.status == 200)
        #expect(try await queued.status == 200)

        await client.stop()
        await scripted.stop()
        gateway.process.terminate()
        worker.terminate()
        _ = await gateway.process.waitForExit()
        await worker.waitForExit()
        await cluster.stop()
    }
}

extension JSONValue {
    var number: Double? {
        if case .number(let value) = self { value } else { nil }
    }
}
