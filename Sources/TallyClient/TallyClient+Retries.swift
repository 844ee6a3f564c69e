import Foundation
import Logging
import Majordomo
import TallyProtocol
import ZeroMQ

extension TallyClient {
    /// Sends one request and interprets its reply, retrying within `timeout` when an attempt times out or Tally
    /// answers `overloaded` or `unavailable` (conditions another attempt, perhaps via another broker, may not meet).
    /// - Parameter interpret: decodes a reply body once; a `.server` error with a retryable code triggers a retry.
    func exchange<T>(
        body: [Frame], service: String, id: String?, timeout: Duration,
        interpret: ([UInt8]) -> Result<T, TallyClientError>
    ) async throws(TallyClientError) -> T {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var backoff = configuration.retryBackoff
        var attempt = 0
        while true {
            attempt += 1
            let attemptsLeft = configuration.retries + 1 - attempt
            // Spread the time left over the attempts left, so one lost attempt cannot eat the whole budget.
            let remaining = deadline - clock.now
            let attemptTimeout = max(attemptsLeft > 0 ? remaining / (attemptsLeft + 1) : remaining, .milliseconds(1))
            let failure: TallyClientError
            do {
                let reply = try await transport.request(service: service, body: body, key: id, timeout: attemptTimeout)
                switch interpret(reply.body.first?.bytes ?? []) {
                case .success(let value):
                    return value
                case .failure(let error):
                    guard case .server(let serverError) = error, Self.retryableCodes.contains(serverError.code) else {
                        throw error
                    }
                    failure = error
                }
            } catch let error as MajordomoClientError {
                switch error {
                case .timeout: failure = .timeout(timeout)
                case .cancelled: throw .cancelled
                case .stopped: throw .stopped
                case .duplicateKey(let key): throw .invalidParams("request id '\(key)' is already in flight")
                }
            } catch let error as TallyClientError {
                throw error
            } catch {
                throw .invalidResponse("\(error)")
            }
            guard attemptsLeft > 0, clock.now + backoff < deadline else { throw failure }
            logger.debug(
                "retrying",
                metadata: ["tally.request.id": "\(id ?? "-")", "attempt": "\(attempt)", "after": "\(failure)"])
            do {
                try await Task.sleep(for: backoff)
            } catch {
                throw .cancelled
            }
            backoff *= 2
        }
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
            case .failure(let error): return .failure(.server(error))
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
