import Foundation
import Logging
import TallyCalendar
import TallyProtocol

/// What a method handler knows about the request besides its params.
package struct RequestContext: Sendable {
    /// The request's envelope.
    package var head: RequestHead
    /// The MDP service the request came through.
    package var service: String
    /// Which of the worker process's MDP connections carries it.
    package var connection: Int
    /// When the worker received it.
    package var receivedAt: Instant
    /// The limits to enforce on lists in the params.
    package var limits: RequestLimits
    /// The worker's logger, without this request's metadata.
    private let workerLogger: Logger

    /// A logger with `tally.request.id` and `tally.method` metadata, and `trace_id` and `span_id` when the request
    /// carries a trace.
    ///
    /// Built when asked for: most requests log nothing, and adding metadata copies the handler's metadata
    /// storage, a cost every cheap request would otherwise pay.
    package var logger: Logger {
        var logger = workerLogger
        logger[metadataKey: "tally.request.id"] = "\(head.id)"
        logger[metadataKey: "tally.method"] = "\(head.method)"
        if let parent = head.trace?.parent {
            logger[metadataKey: "trace_id"] = "\(parent.traceID)"
            logger[metadataKey: "span_id"] = "\(parent.parentID)"
        }
        return logger
    }

    /// - Parameter logger: the worker's logger; the request's metadata is added when `logger` is read.
    package init(
        head: RequestHead, service: String, connection: Int, receivedAt: Instant, limits: RequestLimits, logger: Logger
    ) {
        self.head = head
        self.service = service
        self.connection = connection
        self.receivedAt = receivedAt
        self.limits = limits
        self.workerLogger = logger
    }
}
