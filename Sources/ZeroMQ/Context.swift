import CZeroMQ

/// A libzmq context: the I/O threads and the registry of sockets of one process (or one test).
///
/// Sockets hold a strong reference to their context, so the context is terminated only after its last socket
/// is closed and `zmq_ctx_term` cannot hang waiting for a socket nobody will close.
///
/// - Important: libzmq contexts are thread-safe (the zmq API guarantees it), which is the invariant behind
///   `@unchecked Sendable`; sockets are not, and are never `Sendable`.
package final class Context: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer

    /// Creates a context.
    /// - Parameter ioThreads: libzmq I/O threads; one handles well over a gigabyte a second.
    package init(ioThreads: Int32 = 1) throws(ZMQError) {
        guard let handle = zmq_ctx_new() else { throw .last("zmq_ctx_new") }
        self.handle = handle
        if zmq_ctx_set(handle, ZMQ_IO_THREADS, ioThreads) != 0 {
            let error = ZMQError.last("zmq_ctx_set ZMQ_IO_THREADS")
            zmq_ctx_term(handle)
            throw error
        }
    }

    /// Makes every blocking call on this context's sockets return ETERM, from any thread: the way to stop an
    /// I/O thread that is blocked in `zmq_poll`. The sockets must still be closed by their owning threads.
    package func shutdown() {
        zmq_ctx_shutdown(handle)
    }

    deinit {
        // All sockets are closed (each held a reference to us). Retry on EINTR as the zmq manual asks.
        while zmq_ctx_term(handle) != 0 && zmq_errno() == EINTR {}
    }
}

/// The libzmq library this process runs on.
package enum ZMQLibrary {
    /// `major.minor.patch` of the linked libzmq.
    package static var version: (major: Int32, minor: Int32, patch: Int32) {
        var major: Int32 = 0
        var minor: Int32 = 0
        var patch: Int32 = 0
        zmq_version(&major, &minor, &patch)
        return (major, minor, patch)
    }

    /// Whether libzmq was built with a capability (`"curve"`, `"ipc"`, …).
    package static func has(_ capability: String) -> Bool { zmq_has(capability) != 0 }
}
