import Foundation
import Logging
import TallyProtocol

/// What a method handler knows about the request besides its params.
public struct RequestContext: Sendable {
    /// The request's envelope.
    public var head: RequestHead
    /// The MDP service the request came through.
    public var service: String
    /// Which of the worker process's MDP connections carries it.
    public var connection: Int
    /// When the worker received it.
    public var receivedAt: Date
    /// The limits to enforce on lists in the params.
    public var limits: RequestLimits
    /// A logger with `tally.request.id` and `tally.method` metadata.
    public var logger: Logger

    public init(
        head: RequestHead, service: String, connection: Int, receivedAt: Date, limits: RequestLimits, logger: Logger
    ) {
        self.head = head
        self.service = service
        self.connection = connection
        self.receivedAt = receivedAt
        self.limits = limits
        self.logger = logger
    }
}
