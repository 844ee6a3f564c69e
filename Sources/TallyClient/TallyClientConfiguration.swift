import Majordomo

/// How a `TallyClient` reaches Tally and how patient it is: plain values, no transport types.
public struct TallyClientConfiguration: Sendable, Hashable {
    /// Broker endpoints (`tcp://host:5555`). With several, requests go to the brokers that are up; a broker that
    /// goes down costs at most one attempt of the calls it held.
    public var brokers: [String]
    /// Total time a call may take, retries included; also sent as the request's deadline, so that no worker computes
    /// a request whose caller has given up.
    public var timeout: Duration = .seconds(5)
    /// Extra attempts after a timeout, `overloaded` or `unavailable`. Every v1 method is idempotent, so retrying
    /// is safe.
    public var retries: Int = 2
    /// Pause before a retry (doubled for each further retry, capped by the time left).
    public var retryBackoff: Duration = .milliseconds(100)
    /// Encryption and authentication of the connections.
    public var security: TallyClientSecurity = .plaintext
    /// Largest reply frame accepted, in bytes; a larger one drops the connection.
    public var maxFrameBytes: Int64 = TransportLimits().maxFrameBytes

    public init(brokers: [String]) {
        self.brokers = brokers
    }

    var limits: TransportLimits {
        var limits = TransportLimits()
        limits.maxFrameBytes = maxFrameBytes
        return limits
    }
}
