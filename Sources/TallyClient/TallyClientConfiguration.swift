import Majordomo

/// How a `TallyClient` reaches Tally and how patient it is.
public struct TallyClientConfiguration: Sendable, Hashable {
    /// Broker endpoints. With several, requests go to the brokers that are up; a broker that goes down costs at
    /// most one attempt of the calls it held.
    public var brokers: [String]
    /// Total time a call may take, retries included; also sent as the request's deadline.
    public var timeout: Duration = .seconds(5)
    /// Extra attempts after a timeout, `overloaded` or `unavailable`. Every v1 method is idempotent, so retrying
    /// is safe.
    public var retries: Int = 2
    /// Pause before a retry (doubled for each further retry, capped by the time left).
    public var retryBackoff: Duration = .milliseconds(100)
    /// Socket limits.
    public var limits = TransportLimits()

    public init(brokers: [String]) {
        self.brokers = brokers
    }
}
