import Foundation
import Synchronization
import ZeroMQ

/// What a load run saw, counted per request id: the proof of "every request gets exactly one answer".
struct AnswerLedger: Sendable, CustomStringConvertible {
    var sent = 0
    /// Answers per id sent.
    var answers: [String: Int] = [:]
    /// Answers by outcome (`ok` or the error code).
    var outcomes: [String: Int] = [:]
    /// Replies whose id was never sent (or could not be read).
    var strangers = 0

    /// Requests sent that got no answer.
    var unanswered: Int { sent - answers.count }
    /// Answers beyond the first, summed over ids.
    var duplicates: Int { answers.values.reduce(0) { $0 + max(0, $1 - 1) } }

    mutating func record(_ reply: RawReply, sentIDs: Set<String>) {
        guard let id = reply.id, sentIDs.contains(id) else {
            strangers += 1
            return
        }
        answers[id, default: 0] += 1
        outcomes[reply.outcome, default: 0] += 1
    }

    var description: String {
        let byOutcome = outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return "sent \(sent), answered \(answers.count) (\(byOutcome)), without answer \(unanswered), "
            + "answered twice \(duplicates), unknown replies \(strangers)"
    }
}

/// A closed-loop load of `system.ping` requests from one raw DEALER, each with a unique id, so that every
/// reply, a second one included, is seen and counted. Runs on its own thread (see `onOwnThread`).
struct ExactlyOnceLoad: Sendable {
    var endpoint: String
    var service = "tally.history"
    /// Requests kept outstanding.
    var inFlight = 16
    /// How long new requests are sent.
    var duration: Duration
    /// Most requests sent, or no limit.
    var limit = Int.max
    /// How long to wait for the last answers after sending stops.
    var drainTimeout: Duration = .seconds(30)
    var idPrefix = "load"
    /// How far the run has come, for a test that acts once the load is under way.
    let progress = LoadProgress()

    func run() throws -> AnswerLedger {
        let context = try Context()
        let client = try RawMDPClient(context: context, endpoint: endpoint, receiveTimeout: .milliseconds(100))
        defer { client.socket.close() }
        var ledger = AnswerLedger()
        var sentIDs = Set<String>()
        let clock = ContinuousClock()
        let stopSending = clock.now + duration
        var outstanding = 0
        while true {
            let sending = clock.now < stopSending && ledger.sent < limit
            while sending, outstanding < inFlight {
                let id = "\(idPrefix)-\(ledger.sent)"
                try client.request(service: service, body: RawMDPClient.ping(id: id))
                sentIDs.insert(id)
                ledger.sent += 1
                outstanding += 1
            }
            if !sending, ledger.unanswered == 0 || clock.now > stopSending + drainTimeout { break }
            guard let frames = try client.receive() else { continue }
            let before = ledger.answers.count
            ledger.record(RawReply(frames: frames), sentIDs: sentIDs)
            if ledger.answers.count > before {
                outstanding -= 1
                progress.recordAnswer()
            }
        }
        // Anything arriving late is a second answer: give it a moment to show up.
        let lateUntil = clock.now + .milliseconds(500)
        while clock.now < lateUntil, let frames = try client.receive() {
            ledger.record(RawReply(frames: frames), sentIDs: sentIDs)
        }
        return ledger
    }
}

/// How far a running `ExactlyOnceLoad` has come, read while it runs.
final class LoadProgress: Sendable {
    private let answers = Atomic(0)

    func recordAnswer() { answers.add(1, ordering: .relaxed) }

    /// Requests answered so far (first answers).
    var answered: Int { answers.load(ordering: .relaxed) }
}
