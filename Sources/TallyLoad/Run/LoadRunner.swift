import Foundation
import Synchronization
import TallyClient
import TallyProtocol

/// Drives a running Tally with a workload, closed-loop or open-loop, at a steady load or in stages, until a request
/// count or a duration is reached, whichever comes first, or until it is told to stop (`RunControl`): then it
/// starts no more requests and returns once those in flight have ended.
package struct LoadRunner: Sendable {
    package var workload: Workload
    package var pacing: Pacing
    package var requests: Int?
    package var duration: Duration?
    package var timeout: Duration
    /// Largest number of outstanding requests an open-loop run allows; beyond it a request counts as unanswered
    /// at once (the load generator itself must stay bounded).
    package var maxOutstanding = 50_000
    /// Closed-loop lanes per task group (see `run`).
    static let lanesPerGroup = 256

    package init(workload: Workload, pacing: Pacing, requests: Int?, duration: Duration?, timeout: Duration) {
        self.workload = workload
        self.pacing = pacing
        self.requests = requests
        self.duration = duration
        self.timeout = timeout
    }

    /// Requests the run will start when nothing stops it early, when that is known beforehand: `--requests`, or an
    /// open loop's schedule (the smaller of the two). `nil` for a closed loop that runs for a duration.
    package var plannedRequests: Int? {
        var scheduled: Int?
        switch pacing {
        case .openLoop(let perSecond):
            if let duration { scheduled = Int((LoadStages.Stage.seconds(duration) * perSecond).rounded(.up)) }
        case .openLoopStages(let stages): scheduled = stages.plannedRequests
        case .closedLoop, .closedLoopStages: break
        }
        switch (requests, scheduled) {
        case (let requests?, let scheduled?): return min(requests, scheduled)
        case (let requests, let scheduled): return requests ?? scheduled
        }
    }

    /// Runs the load through `clients` (spread round-robin), reporting into `results`, until its end or until
    /// `control` stops it.
    package func run(clients: [TallyClient], results: LoadResults, control: RunControl = RunControl()) async {
        let clock = ContinuousClock()
        let start = clock.now
        let end = duration.map { start + $0 }
        let budget = Budget(limit: requests)
        switch pacing {
        case .closedLoop(let inFlight):
            await closedLoop(lanes: max(1, inFlight), clients: clients) { _, client in
                while !control.isStopped, let sequence = budget.take(), end.map({ clock.now < $0 }) ?? true {
                    await send(sequence, through: client, scheduledAt: clock.now, clock: clock, results: results)
                }
            }
        case .closedLoopStages(let stages):
            let stagesEnd = start + stages.duration
            let finish = end.map { min($0, stagesEnd) } ?? stagesEnd
            await closedLoop(lanes: Int(stages.highestTarget.rounded()), clients: clients) { lane, client in
                // Lane `lane` works while the target, rounded, is above it, and waits for the target to come back
                // up to it otherwise: lanes above the target finish their request and then stand idle.
                let level = Double(lane) + 0.5
                while !control.isStopped, clock.now < finish {
                    let now = clock.now
                    let seconds = LoadStages.Stage.seconds(now - start)
                    if stages.target(atSeconds: seconds) + 1e-9 >= level {
                        guard let sequence = budget.take() else { return }
                        await send(sequence, through: client, scheduledAt: now, clock: clock, results: results)
                    } else {
                        guard let wanted = stages.firstTime(atLeast: level, from: seconds) else { return }
                        await control.sleep(until: start + .seconds(wanted) + .milliseconds(1), clock: clock)
                    }
                }
            }
        case .openLoop(let perSecond):
            let interval = Duration.seconds(1 / max(perSecond, 0.001))
            await openLoop(clients: clients, results: results, control: control, budget: budget, clock: clock) {
                sequence in
                let scheduled = start + interval * sequence
                return end.map { scheduled < $0 } ?? true ? scheduled : nil
            }
        case .openLoopStages(let stages):
            await openLoop(clients: clients, results: results, control: control, budget: budget, clock: clock) {
                sequence in
                guard let offset = stages.offset(ofRequest: sequence) else { return nil }
                let scheduled = start + .seconds(offset)
                return end.map { scheduled < $0 } ?? true ? scheduled : nil
            }
        }
    }

    /// Runs `lanes` lanes of a closed loop, each `lane(index, client)` until it returns.
    private func closedLoop(
        lanes: Int, clients: [TallyClient], lane: @escaping @Sendable (Int, TallyClient) async -> Void
    ) async {
        // Lanes run in groups of `lanesPerGroup`, each group a task of an outer group: the runtime removes a
        // finished child by walking its group's list of children, so a flood's lanes in one group would spend
        // tally-load's CPU in that walk, O(n²), and the run would measure the load tool instead of the broker.
        // Each lane runs on its client's I/O thread (`TallyClient.executor`): a request reaches the socket and
        // its reply reaches the lane without waking another thread, the larger part of the tool's CPU per request
        // at few requests in flight.
        await withDiscardingTaskGroup { groups in
            for first in stride(from: 0, to: lanes, by: Self.lanesPerGroup) {
                groups.addTask {
                    await withDiscardingTaskGroup { group in
                        for index in first..<min(first + Self.lanesPerGroup, lanes) {
                            let client = clients[index % clients.count]
                            group.addTask(executorPreference: client.executor) { await lane(index, client) }
                        }
                    }
                }
            }
        }
    }

    /// Starts request after request at the moments `schedule(sequence)` gives, until it gives `nil`, the budget
    /// is spent or the run is stopped.
    private func openLoop(
        clients: [TallyClient], results: LoadResults, control: RunControl, budget: Budget, clock: ContinuousClock,
        schedule: (Int) -> ContinuousClock.Instant?
    ) async {
        let outstanding = InFlightCounter()
        // Discarding: a finished request's task is let go at once, not kept (with its result) until the end
        // of the run, which made a long open-loop run grow without bound.
        await withDiscardingTaskGroup { group in
            while !control.isStopped, let sequence = budget.take() {
                guard let scheduled = schedule(sequence) else { break }
                await control.sleep(until: scheduled, clock: clock)
                if control.isStopped { break }
                let client = clients[sequence % clients.count]
                if outstanding.value >= maxOutstanding {
                    let row = workload.pick(sequence).entry
                    results.sent(row)
                    results.unanswered(row)
                } else {
                    outstanding.add(1)
                    group.addTask {
                        await send(
                            sequence, through: client, scheduledAt: scheduled, clock: clock, results: results)
                        outstanding.add(-1)
                    }
                }
            }
        }
    }

    private func send(
        _ sequence: Int, through client: TallyClient, scheduledAt: ContinuousClock.Instant, clock: ContinuousClock,
        results: LoadResults
    ) async {
        let (row, template) = workload.pick(sequence)
        results.sent(row)
        do {
            let reply = try await client.send(
                rawBody: template.body(id: "load-\(sequence)"), service: template.service, timeout: timeout)
            let elapsed = clock.now - scheduledAt
            results.answered(
                row, microseconds: Self.microseconds(elapsed), errorCode: EnvelopeScanner.errorCode(in: reply))
        } catch {
            if error.isFromServer {
                results.answered(
                    row, microseconds: Self.microseconds(clock.now - scheduledAt), errorCode: error.code.rawValue)
            } else {
                results.unanswered(row)
            }
        }
    }

    static func microseconds(_ duration: Duration) -> UInt64 {
        UInt64(max(0, duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000))
    }
}

/// Hands out request sequence numbers up to a limit, from any task.
final class Budget: Sendable {
    private let next = Mutex(0)
    private let limit: Int?

    init(limit: Int?) { self.limit = limit }

    func take() -> Int? {
        next.withLock { value in
            if let limit, value >= limit { return nil }
            defer { value += 1 }
            return value
        }
    }
}

/// Requests started and not yet finished.
final class InFlightCounter: Sendable {
    private let count = Atomic<Int>(0)

    func add(_ delta: Int) { count.add(delta, ordering: .relaxed) }

    var value: Int { count.load(ordering: .relaxed) }
}
