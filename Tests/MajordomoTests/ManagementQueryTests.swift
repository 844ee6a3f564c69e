import Majordomo
import TallyTesting
import Testing
import ZeroMQ

/// MMI replies carry only a status code, so nothing in a reply says which query it answers: the client keeps each
/// query on a socket of its own. A fake broker (a bare ROUTER socket) answers in the order that would cross the
/// answers of a client that matched them in order.
@Suite(.realProcesses) struct ManagementQueryTests {
    /// What the fake broker answers about a service name: only "live" has workers.
    static func status(of name: Frame) -> Frame { name == "live" ? "200" : "404" }

    /// Receives the next client request on `broker` within `timeout`: the requester's routing id and the frames.
    static func nextRequest(on broker: Socket, within timeout: Duration) async throws -> [Frame]? {
        try await broker.nextMessage(within: timeout)?.frames
    }

    /// The broker's answer to `request` (`[id, "", "MDPC01", service, name]`), as RFC 8 words it.
    static func answer(_ request: [Frame], on broker: Socket) throws {
        #expect(Array(request.dropFirst().prefix(3)) == ["", "MDPC01", "mmi.service"])
        try broker.send([request[0], "", "MDPC01", "mmi.service", status(of: request[4])])
    }

    /// How long a query that the fake broker answers may wait for it: a guard against a hang, not a measure. Its
    /// clock runs in the client's loop while this test's task, which plays the broker, may sit queued for the
    /// cooperative pool (20 s between a query's arrival and the answer was seen beside a busy core).
    static let answeredQueryTimeout: Duration = .seconds(120)

    /// Sends a query and returns the task awaiting its answer. The task starts on the caller's thread, so the query
    /// is in the client's inbox when this returns: a wait that follows measures the transport, not how long a
    /// cooperative pool held by the CPU-bound tests beside this one takes to start a child task (20 s was missed so
    /// beside a busy core, with nothing sent yet).
    static func query(
        _ name: Frame, on client: MajordomoClient, timeout: Duration
    ) -> Task<ClientInbound, any Error> {
        Task.immediate { try await client.request(service: "mmi.service", body: [name], key: nil, timeout: timeout) }
    }

    /// Runs `body` with a client of a bare ROUTER socket that plays the broker, and stops the client afterwards.
    func withScriptedBroker(_ body: (Socket, MajordomoClient) async throws -> Void) async throws {
        let context = try Context()
        let broker = try Socket(context, type: .router)
        try broker.bind("tcp://127.0.0.1:0")
        let client = try MajordomoClient(brokers: [broker.lastEndpoint], logger: InProcess.logger) { _ in nil }
        try client.start()
        do {
            try await body(broker, client)
        } catch {
            await client.stop()
            throw error
        }
        await client.stop()
    }

    @Test func answersGivenInReverseOrderReachTheirOwnQueries() async throws {
        try await withScriptedBroker { broker, client in
            let first = Self.query("live", on: client, timeout: Self.answeredQueryTimeout)
            let firstRequest = try #require(try await Self.nextRequest(on: broker, within: .seconds(20)))
            let second = Self.query("gone", on: client, timeout: Self.answeredQueryTimeout)
            let secondRequest = try #require(try await Self.nextRequest(on: broker, within: .seconds(20)))
            // The second query is answered first: in-order matching would hand "404" to the first.
            try Self.answer(secondRequest, on: broker)
            try Self.answer(firstRequest, on: broker)
            #expect(try await first.value.body == ["200"])
            #expect(try await second.value.body == ["404"])
        }
    }

    @Test func theLateAnswerOfATimedOutQueryReachesNoOtherQuery() async throws {
        try await withScriptedBroker { broker, client in
            // The broker sits on the first query until it times out (2 s: time enough to reach a loaded broker).
            let first = Self.query("live", on: client, timeout: .seconds(2))
            let firstRequest = try #require(try await Self.nextRequest(on: broker, within: .seconds(20)))
            do {
                _ = try await first.value
                Issue.record("the first query was answered")
            } catch {
                guard case .timeout = error as? MajordomoClientError else { throw error }
            }
            let second = Self.query("gone", on: client, timeout: Self.answeredQueryTimeout)
            let secondRequest = try #require(try await Self.nextRequest(on: broker, within: .seconds(20)))
            try Self.answer(firstRequest, on: broker)
            try Self.answer(secondRequest, on: broker)
            #expect(try await second.value.body == ["404"], "the first query's late 200 went nowhere")
        }
    }
}
