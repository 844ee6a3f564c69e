import Foundation
import Logging
import Majordomo
import TallyProtocol
import ZeroMQ

extension TallyClient {
    /// Sends one request and interprets its reply, retrying within `timeout` when an attempt times out or Tally
    /// answers `overloaded` or `unavailable` (conditions another attempt, perhaps via another broker, may not meet),
    /// after a doubling back-off and never before the answer's `retry_after_ms`.
    /// - Parameter interpret: decodes a reply body once; a `.server` error with a retryable code triggers a retry.
    func exchange<T>(
        body: [Frame], service: String, id: String?, timeout: Duration,
        interpret: ([UInt8]) -> Result<T, TallyClientError>
    ) async throws(TallyClientError) -> T {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var backoff = configuration.retryBackoff
        var attempts: [TallyClientError.Attempt] = []
        while true {
            let attemptsLeft = configuration.retries - attempts.count
            // Spread the time left over the attempts left, so one lost attempt cannot eat the whole budget.
            let remaining = deadline - clock.now
            let attemptTimeout = max(attemptsLeft > 0 ? remaining / (attemptsLeft + 1) : remaining, .milliseconds(1))
            let started = clock.now
            var failure: TallyClientError
            do {
                let reply = try await transport.request(service: service, body: body, key: id, timeout: attemptTimeout)
                switch interpret(reply.body.first?.bytes ?? []) {
                case .success(let value):
                    return value
                case .failure(let error):
                    failure = error
                    guard error.isFromServer, Self.retryableCodes.contains(error.code) else {
                        attempts.append(.init(code: error.code, message: error.message, duration: clock.now - started))
                        throw Self.withHistory(error, attempts)
                    }
                }
            } catch let error as MajordomoClientError {
                switch error {
                case .timeout(_, let brokers):
                    failure = .timeout(timeout, brokers: brokers.map(BrokerConnectionState.init))
                case .cancelled: throw Self.withHistory(.cancelled, attempts)
                case .stopped: throw Self.withHistory(.stopped, attempts)
                case .notStarted: throw Self.withHistory(.notRunning, attempts)
                case .duplicateKey(let key): throw .duplicateID(key)
                }
            } catch let error as TallyClientError {
                throw error
            } catch {
                throw .invalidResponse("\(error)")
            }
            attempts.append(.init(code: failure.code, message: failure.message, duration: clock.now - started))
            // The server may say how long to stay away (`retry_after_ms` with `overloaded`): never sooner.
            let pause = max(backoff, failure.details?.retryAfterMilliseconds.map { .milliseconds($0) } ?? .zero)
            guard attemptsLeft > 0, clock.now + pause < deadline else { throw Self.withHistory(failure, attempts) }
            logger.debug(
                "retrying",
                metadata: ["tally.request.id": "\(id ?? "-")", "attempt": "\(attempts.count)", "after": "\(failure)"])
            do {
                try await Task.sleep(for: pause)
            } catch {
                throw Self.withHistory(.cancelled, attempts)
            }
            backoff *= 2
        }
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
