import Foundation
import TallyClient
import TallyProtocol
import TallyTesting
import Testing
import ZeroMQ

/// The hostile-input table over the real transport: each malformed message goes from a raw DEALER to a running
/// tally-broker and tally-worker, and gets exactly its documented answer or drop. Afterwards both processes are
/// the same ones, still up, and serve a valid request.
@Suite(.realProcesses) struct HostileTransportTests {
    struct Verdict: Sendable {
        var row: String
        var expected: HostileRequest.Expectation
        var observed: String
        var holds: Bool
    }

    @Test func everyMalformedRequestGetsItsDocumentedAnswerAndTheProcessesKeepServing() async throws {
        let rows = HostileRequest.transport + HostileRequest.json
        #expect(rows.count >= 60)
        // A short queue timeout, so that the two requests for services nobody serves are answered soon; long
        // enough that a control request queued behind a slow row (a 900 KB id decoded by a debug build on a busy
        // machine) is still served.
        let cluster = try await TallyCluster.start(
            workers: 1, brokerArguments: ["--queue-timeout", "5s"], workerArguments: ["--concurrency", "1"])
        let client = try makeClient([cluster.endpoint])
        #expect(await waitForServices(client))

        let endpoint = cluster.endpoint
        let verdicts = try await onOwnThread {
            let context = try Context()
            return try rows.enumerated().map { index, row in
                try Self.check(row, control: "control-\(index)", context: context, endpoint: endpoint)
            }
        }
        for verdict in verdicts {
            #expect(verdict.holds, "\(verdict.row): expected \(verdict.expected), got \(verdict.observed)")
        }
        print("hostile input: \(verdicts.filter(\.holds).count) of \(verdicts.count) rows as documented")

        #expect(cluster.broker.isRunning)
        #expect(cluster.workers[0].isRunning)
        let pong = try await client.ping(service: .streak)
        #expect(pid(of: pong.worker) == cluster.workers[0].processIdentifier, "the same worker process serves")
        await client.stop()
        await cluster.stop()
    }

    /// Sends `row` on a fresh DEALER, then a valid ping (`control`) that queues behind it, and collects what
    /// arrives until the control's answer (and the row's, if one is documented) is in.
    static func check(_ row: HostileRequest, control: String, context: Context, endpoint: String) throws -> Verdict {
        let raw = try RawMDPClient(context: context, endpoint: endpoint, receiveTimeout: .seconds(15))
        try raw.send(row.frames)
        // A dropped connection loses what followed on it: the control goes on a new one.
        let dropsConnection = row.expected == .connectionDropped
        let controlClient =
            dropsConnection
            ? try RawMDPClient(context: context, endpoint: endpoint, receiveTimeout: .seconds(15)) : raw
        try controlClient.request(service: row.service, body: RawMDPClient.ping(id: control))
        let answersExpected = [.dropped, .connectionDropped].contains(row.expected) ? 0 : 1
        var answers: [RawReply] = []
        var controlAnswered = false
        while !controlAnswered || answers.count < answersExpected, let frames = try controlClient.receive() {
            let reply = RawReply(frames: frames)
            if reply.id == control {
                // Served, not merely answered: a row that wedged a worker would leave the control `unavailable`.
                controlAnswered = reply.outcome == "ok"
                if !controlAnswered { answers.append(reply) }
            } else {
                answers.append(reply)
            }
        }
        if dropsConnection {
            try raw.socket.set(.receiveTimeout, .milliseconds(300))
            if let frames = try raw.receive() { answers.append(RawReply(frames: frames)) }
        }
        let observed =
            (controlAnswered ? "" : "the control request was not served; ")
            + (answers.isEmpty ? "nothing" : answers.map(describe).joined(separator: " + "))
        return Verdict(
            row: row.name, expected: row.expected, observed: observed,
            holds: controlAnswered && matches(row.expected, answers))
    }

    static func matches(_ expected: HostileRequest.Expectation, _ answers: [RawReply]) -> Bool {
        switch expected {
        case .dropped, .connectionDropped:
            return answers.isEmpty
        case .error(let code, let field):
            return answers.count == 1 && answers[0].errorCode == code
                && (field == nil || answers[0].errorField == field)
        case .result:
            return answers.count == 1 && answers[0].outcome == "ok"
        case .workerDisconnect:
            return answers.count == 1 && answers[0].frames == ["", "MDPW01", Frame([0x05])]
        case .mmi(let status):
            return answers.count == 1 && answers[0].isClientReply && answers[0].body == Array(status.utf8)
        }
    }

    static func describe(_ reply: RawReply) -> String {
        guard reply.isClientReply else { return "frames \(reply.frames.map(\.description))" }
        let field = reply.errorField.map { " at \($0)" } ?? ""
        return "\(reply.service ?? "?"): \(reply.outcome)\(field) (id \(reply.id ?? "null"))"
    }
}
