/// Why a Majordomo request got no reply.
package enum MajordomoClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No reply within the request's timeout (no broker reachable, or the reply was lost with its broker), with how
    /// each broker's connection stood then.
    case timeout(Duration, brokers: [BrokerConnection])
    /// The calling task was cancelled.
    case cancelled
    /// The client was stopped before the reply arrived, or before the request was made.
    case stopped
    /// The client has not been started: nobody would send the request.
    case notStarted
    /// Another request with the same correlation key is in flight.
    case duplicateKey(String)

    package var description: String {
        switch self {
        case .timeout(let duration, let brokers):
            "no reply within \(BrokerConnection.seconds(duration)) (\(brokers.map(\.description).joined(separator: "; ")))"
        case .cancelled: "the request was cancelled"
        case .stopped: "the client was stopped"
        case .notStarted: "the client has not been started"
        case .duplicateKey(let key): "a request with key '\(key)' is already in flight"
        }
    }
}
