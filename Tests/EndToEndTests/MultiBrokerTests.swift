import Foundation
import TallyCalendar
import TallyClient
import TallyProtocol
import TallyTesting
import Testing

/// The many-core shape (docs/deploying.md, "How many brokers and workers"): brokers side by side, every worker
/// registered with each, clients listing them all. A broker forwards on one thread; a host whose workers compute more
/// than one broker forwards runs more brokers, and nothing else changes.
@Suite(.realProcesses) struct MultiBrokerTests {
    /// Calls of the measured phase, and how many of them are in flight at once.
    static let calls = 200
    static let callers = 16

    @Test func oneClientSpreadsItsCallsOverEveryBrokerAndEachCallGetsItsOwnAnswer() async throws {
        let httpA = ProcessProbes.freeLoopbackAddress()
        let httpB = ProcessProbes.freeLoopbackAddress()
        let brokerA = try await TallyCluster.startBroker(bind: "tcp://127.0.0.1:0", arguments: ["--http", httpA])
        let brokerB = try await TallyCluster.startBroker(bind: "tcp://127.0.0.1:0", arguments: ["--http", httpB])
        let endpoints = [
            try await TallyCluster.brokerEndpoint(brokerA), try await TallyCluster.brokerEndpoint(brokerB),
        ]
        var workers: [ManagedProcess] = []
        for index in 0..<2 {
            workers.append(
                try await TallyCluster.startWorker(
                    endpoint: endpoints[0], arguments: ["--broker", endpoints[1]], name: "both-\(index)"))
        }
        let processes = #"tally_broker_worker_processes{service="tally.streak"}"#
        for http in [httpA, httpB] {
            #expect(
                await eventually(timeout: .seconds(20)) {
                    await ProcessProbes.metrics(at: http).map { ProcessProbes.sample(processes, in: $0) } == 2
                }, "both workers registered with the broker at \(http)")
        }

        let client = try makeClient(endpoints, retries: 0)
        // The client's connections come up in the background: pings until each broker has delivered one, so that
        // the measured calls find both.
        let pings = #"tally_broker_requests_total{service="tally.history",outcome="delivered"}"#
        #expect(
            await eventually(timeout: .seconds(20)) {
                _ = try? await client.ping()
                for http in [httpA, httpB] {
                    guard let metrics = await ProcessProbes.metrics(at: http),
                        ProcessProbes.sample(pings, in: metrics) > 0
                    else { return false }
                }
                return true
            }, "the client reached both brokers")

        // Each call asks for a streak of its own length: an answer that reached the wrong caller shows.
        let mismatches = try await withThrowingTaskGroup(of: [String].self) { group in
            for caller in 0..<Self.callers {
                group.addTask {
                    var wrong: [String] = []
                    for call in stride(from: caller, to: Self.calls, by: Self.callers) {
                        let length = 1 + call % 40
                        let summary = try await client.streakSummary(try Self.streak(ofLength: length))
                        if summary.currentStreak?.days != length {
                            wrong.append(
                                "call \(call): asked \(length), got \(String(describing: summary.currentStreak))")
                        }
                    }
                    return wrong
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")

        let delivered = #"tally_broker_requests_total{service="tally.streak",outcome="delivered"}"#
        var perBroker: [Int] = []
        for http in [httpA, httpB] {
            let metrics = try #require(await ProcessProbes.metrics(at: http))
            perBroker.append(Int(ProcessProbes.sample(delivered, in: metrics)))
        }
        print("multi-broker: \(Self.calls) streak.summary calls delivered by each broker: \(perBroker)")
        #expect(perBroker.reduce(0, +) == Self.calls, "every call went through exactly one broker: \(perBroker)")
        // The client's socket deals requests round robin over its connected brokers: about half each.
        #expect(perBroker.allSatisfy { $0 >= Self.calls / 4 }, "both brokers carried a share: \(perBroker)")

        await client.stop()
        for worker in workers { worker.terminate() }
        for worker in workers { #expect(await worker.waitForExit() == 0) }
        for broker in [brokerA, brokerB] {
            broker.terminate()
            await broker.waitForExit()
        }
    }

    /// `streak.summary` params whose current streak is `length` days: the goal met on each of the last `length`
    /// days up to the reference day, and missed the day before them.
    static func streak(ofLength length: Int) throws -> StreakSummary.Params {
        let today = try #require(LocalDate("2026-11-01"))
        let zone = try #require(ZoneName("Europe/Berlin"))
        let time = RequestTime(zone: .named(zone), reference: .now(try Timestamp(parsing: "2026-11-01T18:00:00+01:00")))
        let goals = GoalParams(log: [GoalChange(effectiveDate: try #require(LocalDate("2026-01-01")), goal: 8000)])
        let records = (0...length).map { back in
            DailyRecordParams(date: today.adding(days: -back), steps: back == length ? 10 : 9000)
        }
        return StreakSummary.Params(time: time, goals: goals, records: records)
    }
}
