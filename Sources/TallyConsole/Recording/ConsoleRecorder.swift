import Foundation
import Majordomo
import Synchronization
import TallyBroker
import TallyProtocol

/// Turns the broker's events into what the console shows over time: each service's last minute (requests per
/// second, errors by code, p50 and p99), the cluster's last 15 minutes, and recent incidents. Live state (workers,
/// queues) comes from the broker's snapshot instead; see `ClusterDocumentBuilder`.
///
/// `record` runs on the broker's I/O thread for every event, beside `BrokerMetrics`: a lock, a dictionary lookup
/// by service name and a few increments, no allocation for a delivered reply, and no clock read (events land in
/// the current step, which `tick` closes). Memory is fixed by the bounds: at most `maximumServices` services
/// (those a worker registered; requests for other names count in the cluster's figures and incidents only), a
/// histogram per step per service, `IncidentLog.capacity` incidents and `RateHistory.capacity` points.
package final class ConsoleRecorder: Sendable {
    /// How long a step lasts: the windows' and the chart's resolution.
    package static let step: Duration = .seconds(5)

    struct State: Sendable {
        var services: [String: ServiceWindow] = [:]
        var history = RateHistory()
        var incidents = IncidentLog()
        var stepStartedAt: ContinuousClock.Instant
        /// The wall-clock time of the last `tick`: what incidents are stamped with.
        var wallTime: Date
    }

    /// Services with windows of their own, at most.
    package let maximumServices: Int
    private let state: Mutex<State>

    package init(
        maximumServices: Int = 256, now: ContinuousClock.Instant = .now, wallTime: Date = Date()
    ) {
        self.maximumServices = maximumServices
        state = Mutex(State(stepStartedAt: now, wallTime: wallTime))
    }

    /// Records one event; called on the broker's I/O thread, so it stays cheap.
    package func record(_ event: BrokerEvent) {
        switch event {
        case .replyDelivered(let service, let latency, _):
            let microseconds = latency.microseconds
            state.withLock { state in
                state.services[service]?.delivered(microseconds: microseconds)
                state.history.delivered(microseconds: microseconds)
            }
        case .errorReplied(let service, let code):
            state.withLock { $0.services[service]?.failed(code: code, answered: false) }
        case .requestFailed(let service, let failure):
            state.withLock { state in
                state.services[service]?.failed(code: TallyEnvelope.code(for: failure).rawValue, answered: true)
                state.history.failed()
                state.noteFailure(failure, of: service)
            }
        case .workerReady(_, let service):
            state.withLock { state in
                if state.services[service] == nil, state.services.count < maximumServices {
                    state.services[service] = ServiceWindow()
                }
            }
        case .workerExpired(let worker, let service):
            incident("worker_expired", service, reason: "silent", "connection \(worker) went silent")
        case .workerTimedOut(let worker, let service, let held):
            incident(
                "worker_timed_out", service, reason: "request_timeout",
                "connection \(worker) held a request \(Int(held.seconds * 1000)) ms; disconnected")
        case .requestPoisoned(let service, let request):
            incident(
                "request_poisoned", service, reason: "worker_died",
                "\(request): its workers died computing it; answered internal")
        case .replyRefused(let worker, let service, let reason):
            incident("reply_refused", service, reason: reason.rawValue, "connection \(worker): \(reason); disconnected")
        case .requestRequeued(let service, let attempts):
            // A worker vanished (killed, expired, unreachable) or misbehaved while holding the request.
            incident(
                "worker_lost", service, reason: "requeued",
                "a request lost its worker after \(attempts) attempt(s) and went back to the queue")
        case .workerDisconnected, .requestReturned, .replyDropped, .protocolViolation, .managementQuery,
            .requestTrace:
            break
        }
    }

    /// Records an incident; its words are made only when the log keeps them (`IncidentLog.record`).
    private func incident(_ kind: String, _ service: String, reason: String, _ detail: @autoclosure () -> String) {
        state.withLock { $0.incident(kind, service, reason: reason, detail: detail()) }
    }

    /// Moves time on: called about once a second by the console's ticker (`ConsoleService`). Closes the current
    /// step when it has lasted `step`.
    package func tick(now: ContinuousClock.Instant = .now, wallTime: Date = Date()) {
        state.withLock { state in
            state.wallTime = wallTime
            let elapsed = now - state.stepStartedAt
            guard elapsed >= Self.step else { return }
            for name in state.services.keys { state.services[name]?.advance(duration: elapsed) }
            state.history.advance(duration: elapsed, end: wallTime)
            state.stepStartedAt = now
        }
    }

    /// What the console shows of the recorded past, as of `now`.
    func reading(now: ContinuousClock.Instant = .now) -> ConsoleReading {
        state.withLock { state in
            let current = max(.zero, now - state.stepStartedAt)
            return ConsoleReading(
                windows: state.services.mapValues { $0.reading(currentDuration: current) },
                incidents: state.incidents.entries, history: state.history.ordered)
        }
    }
}

/// The recorder's figures at one moment.
struct ConsoleReading: Sendable {
    var windows: [String: ClusterDocument.Window]
    var incidents: [IncidentLog.Entry]
    var history: [RateHistory.Point]
}

extension ConsoleRecorder.State {
    /// An incident about `service`: a registered service by name, any other under no name (its name is in the
    /// detail), so that invented names cannot spread one failure over many entries.
    mutating func incident(_ kind: String, _ service: String, reason: String, detail: @autoclosure () -> String) {
        let known = services[service] != nil
        incidents.record(
            IncidentLog.Key(kind: kind, service: known ? service : nil, reason: reason),
            detail: known ? detail() : "\(service): \(detail())", at: wallTime)
    }

    /// The broker's own answers that are incidents: a full queue, and every kind of `unavailable`. A body too
    /// large is the client's mistake, and a poison request is reported by its own event.
    mutating func noteFailure(_ failure: BrokerFailure, of service: String) {
        switch failure {
        case .overloaded:
            incident("overloaded", service, reason: failure.kind, detail: failure.description)
        case .noWorker, .notServed, .workersLost, .workerTimedOut, .shuttingDown, .tooManyServices:
            incident("unavailable", service, reason: failure.kind, detail: failure.description)
        case .payloadTooLarge, .workerDied:
            break
        }
    }
}
