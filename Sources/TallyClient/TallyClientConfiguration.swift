import Majordomo
import ZeroMQ

/// How a `TallyClient` reaches Tally and how patient it is: plain values, no transport types.
public struct TallyClientConfiguration: Sendable, Hashable {
    /// Broker endpoints (`tcp://host:5555`). With several, each call goes to the connected broker that holds the
    /// fewest of this client's calls; when a broker's connection is lost (it closed, or the broker stopped
    /// answering heartbeats), the calls it held are sent again at once to another broker: no call fails for it.
    public var brokers: [String]
    /// Total time a call may take, retries included; also sent as the request's deadline, so that no worker computes
    /// a request whose caller has given up.
    public var timeout: Duration = .seconds(5)
    /// Extra attempts after a timeout, `overloaded` or `unavailable`. Every v1 method is idempotent, so retrying
    /// is safe.
    public var retries: Int = 2
    /// Pause before the first retry; doubled for each further one, up to `maxRetryBackoff`, and never shorter than
    /// the `retry_after_ms` an `overloaded` answer asks for.
    public var retryBackoff: Duration = .milliseconds(100)
    /// The longest pause between attempts.
    public var maxRetryBackoff: Duration = .seconds(2)
    /// A pause is lengthened by up to this fraction of it at random, so that clients refused together do not come
    /// back together.
    public var retryJitter: Double = 0.2
    /// Encryption and authentication of the connections.
    public var security: TallyClientSecurity = .plaintext
    /// How often each broker connection is sent a ZMTP heartbeat (PING); `nil` for none. A broker whose host
    /// vanishes without a TCP reset (power, link, firewall) is then noticed only when TCP gives up, many minutes
    /// later. Turn it off only for a broker on a ZeroMQ stack older than ZMTP 3.1 (libzmq before 4.2), which does
    /// not answer PINGs.
    public var heartbeatInterval: Duration? = BrokerLiveness().interval
    /// How long a broker connection waits for anything (a PONG, a reply) after a heartbeat, and a connection
    /// attempt for an answer, before the broker is taken for lost: its calls go to another broker then. With the
    /// defaults a silent broker is noticed within 1–1.25 s. Shorter moves calls sooner but takes a busy broker
    /// for a lost one more readily; calls moved in vain are answered once all the same.
    public var heartbeatTimeout: Duration = BrokerLiveness().timeout
    /// Largest reply frame accepted, in bytes; a larger one drops the connection.
    public var maxFrameBytes: Int64 = TransportLimits().maxFrameBytes

    /// A configuration of these brokers' endpoints (`tcp://host:5555`, `ipc://…`) and the defaults for the rest.
    public init(brokers: [String]) {
        self.brokers = brokers
    }

    /// Refuses a configuration that cannot work, naming the setting.
    func check() throws(TallyClientError) {
        guard !brokers.isEmpty else {
            throw TallyClientError(
                .invalidConfiguration, "give at least one broker endpoint, e.g. tcp://127.0.0.1:5555")
        }
        for endpoint in brokers {
            do {
                try EndpointSyntax.check(endpoint, for: .connect)
            } catch {
                throw TallyClientError(.invalidConfiguration, "\(error)")
            }
        }
        if let interval = heartbeatInterval, interval <= .zero {
            throw TallyClientError(.invalidConfiguration, "heartbeatInterval must be positive, or nil for none")
        }
        guard heartbeatTimeout > .zero else {
            throw TallyClientError(.invalidConfiguration, "heartbeatTimeout must be positive")
        }
        guard timeout > .zero else { throw TallyClientError(.invalidConfiguration, "timeout must be positive") }
        guard retries >= 0 else { throw TallyClientError(.invalidConfiguration, "retries must be 0 or more") }
        guard retryBackoff >= .zero, maxRetryBackoff >= .zero else {
            throw TallyClientError(.invalidConfiguration, "retryBackoff and maxRetryBackoff must not be negative")
        }
        guard retryJitter >= 0, retryJitter.isFinite else {
            throw TallyClientError(.invalidConfiguration, "retryJitter must be a fraction of 0 or more")
        }
    }

    var liveness: BrokerLiveness {
        BrokerLiveness(interval: heartbeatInterval, timeout: heartbeatTimeout)
    }

    var limits: TransportLimits {
        var limits = TransportLimits()
        limits.maxFrameBytes = maxFrameBytes
        return limits
    }
}
