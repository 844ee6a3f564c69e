import ZeroMQ

/// Why the broker itself answers a request instead of a worker.
package enum BrokerFailure: Sendable, Hashable, CustomStringConvertible {
    /// The service's queue is full.
    case overloaded(limit: Int)
    /// No worker took the request before the queue timeout.
    case noWorker(waited: Duration)
    /// No worker serves the service, and none is expected (`BrokerConfiguration.serviceGrace`): answered at once.
    case notServed
    /// Every attempt lost its worker (died, expired or disconnected while holding the request).
    case workersLost(attempts: Int)
    /// The worker holding the request did not answer within the request timeout; it was disconnected.
    case workerTimedOut(held: Duration)
    /// The broker is shutting down and accepts no new work.
    case shuttingDown
    /// The broker already tracks its maximum number of services.
    case tooManyServices(limit: Int)
    /// The request body is larger than the broker accepts.
    case payloadTooLarge(bytes: Int, limit: Int)
    /// The request lost its worker again while it was the only request that worker process held: it is taken to
    /// be what kills workers (a poison request) and is not tried again.
    case workerDied(workersLost: Int)

    package var description: String {
        switch self {
        case .overloaded(let limit): "the service's queue is full (\(limit) requests)"
        case .noWorker(let waited): "no worker took the request within \(waited)"
        case .notServed: "no worker serves the service"
        case .workersLost(let attempts): "the request lost its worker \(attempts) time(s)"
        case .workerTimedOut(let held): "the worker did not answer within \(held)"
        case .shuttingDown: "the broker is shutting down"
        case .tooManyServices(let limit):
            "\(limit) services that no worker serves already have requests waiting (names only clients have used)"
        case .payloadTooLarge(let bytes, let limit): "the request body has \(bytes) bytes; the limit is \(limit)"
        case .workerDied(let lost): "\(lost) workers died while holding the request, the last with nothing else to do"
        }
    }
}

extension BrokerFailure {
    /// A stable name for the kind of failure, without its values: for metric labels and log grouping.
    package var kind: String {
        switch self {
        case .overloaded: "overloaded"
        case .noWorker: "no_worker"
        case .notServed: "not_served"
        case .workersLost: "workers_lost"
        case .workerTimedOut: "worker_timeout"
        case .shuttingDown: "shutting_down"
        case .tooManyServices: "too_many_services"
        case .payloadTooLarge: "payload_too_large"
        case .workerDied: "worker_died"
        }
    }
}
