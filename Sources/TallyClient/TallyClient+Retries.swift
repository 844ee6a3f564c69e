import Foundation
import Logging
import TallyCalendar
import TallyJSONCoding
import TallyProtocol

/// A call's time: when it must have ended on this process's clock, and the same moment as the wall-clock deadline
/// the request carries to the workers.
struct CallBudget: Sendable {
    let end: ContinuousClock.Instant
    /// The whole time the call was given, for its messages.
    let total: Duration
    let wireDeadline: Instant

    /// The earlier of `timeout` from now and `deadline`.
    init(timeout: Duration, deadline: ContinuousClock.Instant?) {
        let now = ContinuousClock.now
        var end = now + timeout
        if let deadline, deadline < end { end = deadline }
        self.end = end
        total = max(.zero, end - now)
        wireDeadline = Instant.now.advanced(by: end - now)
    }
}

extension TallyClient {
    /// Sends one request and interprets its reply, retrying within the budget when an attempt times out or Tally
    /// answers `overloaded` or `unavailable` (conditions another attempt, perhaps via another broker, may not meet),
    /// after a back-off that doubles up to `maxRetryBackoff`, lengthened by up to `retryJitter` at random, and never
    /// shorter than the answer's `retry_after_ms`. A call made before the client runs waits for it within its budget.
    /// - Parameter interpret: decodes a reply body once; a `.server` error with a retryable code triggers a retry.
    func exchange<T>(
        body: [UInt8], service: String, id: String?, budget: CallBudget, retries: Int,
        interpret: ([UInt8]) -> Result<T, TallyClientError>
    ) async throws(TallyClientError) -> T {
        // A call whose deadline has already passed is not sent: no worker would compute it anyway.
        guard budget.total > .zero else {
            throw TallyClientError(.timeout, "the call's deadline had passed before it started")
        }
        switch await gate.waitUntilRunning(until: budget.end) {
        case .running: break
        case .stopped: throw .stopped
        case .cancelled: throw .cancelled
        case .timedOut: throw .notStarted(within: budget.total)
        }
        let clock = ContinuousClock()
        var backoff = configuration.retryBackoff
        var attempts: [TallyClientError.Attempt] = []
        while true {
            let attemptsLeft = max(0, retries) - attempts.count
            // Spread the time left over the attempts left, so one lost attempt cannot eat the whole budget.
            let remaining = budget.end - clock.now
            let attemptTimeout = max(attemptsLeft > 0 ? remaining / (attemptsLeft + 1) : remaining, .milliseconds(1))
            let started = clock.now
            let failure: TallyClientError
            switch await attempt(service: service, body: body, id: id, timeout: attemptTimeout) {
            case .success(let reply):
                switch interpret(reply) {
                case .success(let value):
                    return value
                case .failure(let error):
                    failure = error
                    guard error.isFromServer, Self.retryableCodes.contains(error.code) else {
                        attempts.append(.init(code: error.code, message: error.message, duration: clock.now - started))
                        throw Self.withHistory(error, attempts)
                    }
                }
            case .failure(.timeout(let brokers)):
                failure = .timeout(budget.total, brokers: brokers)
            case .failure(.cancelled): throw Self.withHistory(.cancelled, attempts)
            case .failure(.stopped): throw Self.withHistory(.stopped, attempts)
            case .failure(.duplicateKey(let key)): throw .duplicateID(key)
            }
            attempts.append(.init(code: failure.code, message: failure.message, duration: clock.now - started))
            // The server may say how long to stay away (`retry_after_ms` with `overloaded`): never sooner.
            let asked = failure.details?.retryAfterMilliseconds.map { Duration.milliseconds($0) } ?? .zero
            let pause = max(jittered(backoff), asked)
            guard attemptsLeft > 0, clock.now + pause < budget.end else { throw Self.withHistory(failure, attempts) }
            logger.debug(
                "retrying",
                metadata: ["tally.request.id": "\(id ?? "-")", "attempt": "\(attempts.count)", "after": "\(failure)"])
            do {
                try await self.pause(pause)
            } catch {
                throw Self.withHistory(.cancelled, attempts)
            }
            backoff = min(backoff * 2, configuration.maxRetryBackoff)
        }
    }

    /// One attempt, its outcome as a value.
    private func attempt(
        service: String, body: [UInt8], id: String?, timeout: Duration
    ) async -> Result<[UInt8], TransportFailure> {
        do throws(TransportFailure) {
            return .success(try await transport.attempt(service: service, body: body, key: id, timeout: timeout))
        } catch {
            return .failure(error)
        }
    }

    /// `backoff` lengthened by up to `retryJitter` of it at random, and at most `maxRetryBackoff`: clients refused
    /// together (an `overloaded` burst) do not all come back at the same moment.
    func jittered(_ backoff: Duration) -> Duration {
        let stretched = backoff * (1 + Double.random(in: 0...max(0, configuration.retryJitter)))
        return min(stretched, max(backoff, configuration.maxRetryBackoff))
    }

    /// `error` with the attempts that led to it, when there was more than one.
    static func withHistory(_ error: TallyClientError, _ attempts: [TallyClientError.Attempt]) -> TallyClientError {
        var error = error
        if attempts.count > 1 { error.attempts = attempts }
        return error
    }

    /// Error codes worth another attempt.
    static let retryableCodes: Set<ErrorCode> = [.overloaded, .unavailable]

    /// Decodes a v1 response for `Result`, turning an error response into `.server`.
    static func decodeResponse<Result: Codable & Sendable>(
        _ bytes: [UInt8], as: Result.Type
    ) -> Swift.Result<Result, TallyClientError> {
        do {
            switch try TallyJSON.decoder().decode(ResponseEnvelope<Result>.self, from: bytes).outcome {
            case .success(let result): return .success(result)
            case .failure(let error): return .failure(TallyClientError(server: error))
            }
        } catch {
            return .failure(.invalidResponse("\(error)"))
        }
    }
}

/// Reads only whether a response is an error, and which: for replies passed through undecoded.
struct ErrorProbe: Decodable {
    var error: TallyError?
}
