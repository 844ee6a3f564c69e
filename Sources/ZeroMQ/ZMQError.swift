import CZeroMQ

/// An error reported by libzmq, carrying its `errno` so that callers can tell the expected ones (EAGAIN: nothing
/// to do now; ETERM: the context is shutting down; EINTR: a signal arrived) from real failures.
package struct ZMQError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The `zmq_errno()` value.
    package let errno: Int32
    /// What was being done, e.g. `bind tcp://127.0.0.1:5555`.
    package let operation: String

    package init(errno: Int32, operation: String = "") {
        self.errno = errno
        self.operation = operation
    }

    /// Captures `zmq_errno()` right after a failed call.
    static func last(_ operation: @autoclosure () -> String) -> ZMQError {
        ZMQError(errno: zmq_errno(), operation: operation())
    }

    /// The message libzmq gives for this errno.
    package var message: String { String(cString: zmq_strerror(errno)) }

    package var description: String {
        operation.isEmpty ? "\(message) (errno \(errno))" : "\(operation): \(message) (errno \(errno))"
    }

    /// Equality ignores the operation, so `error == .again` reads naturally.
    package static func == (lhs: ZMQError, rhs: ZMQError) -> Bool { lhs.errno == rhs.errno }

    package func hash(into hasher: inout Hasher) { hasher.combine(errno) }

    /// EAGAIN: a non-blocking call had nothing to do.
    package static let again = ZMQError(errno: EAGAIN)
    /// ETERM: the context was terminated.
    package static let terminated = ZMQError(errno: ETERM_VALUE)
    /// EINTR: interrupted by a signal; retry.
    package static let interrupted = ZMQError(errno: EINTR)
    /// EHOSTUNREACH: a ROUTER_MANDATORY socket was asked to route to a peer it does not know.
    package static let hostUnreachable = ZMQError(errno: EHOSTUNREACH)
    /// EINVAL: an invalid argument (bad option, bad endpoint).
    package static let invalidArgument = ZMQError(errno: EINVAL)
}

// ETERM is defined by zmq.h relative to ZMQ_HAUSNUMERO; import it once under a plain name.
let ETERM_VALUE: Int32 = ETERM
