#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file descriptor that becomes readable when any thread calls `signal()`: how work handed to an I/O thread
/// wakes its `zmq_poll` (libzmq polls plain descriptors alongside sockets).
///
/// Backed by a non-blocking pipe. Signals coalesce: several `signal()` calls before a
/// `drain()` wake the poller once, so the I/O thread must process everything queued after each wake-up.
///
/// - Important: `signal()` is safe from any thread (a `write` to the descriptor); `drain()` belongs to the
///   polling thread. That is the invariant behind `@unchecked Sendable`.
package final class WakeupSignal: @unchecked Sendable {
    /// Register this with a `Poller` for `.readable`.
    package let fileDescriptor: Int32
    private let writeDescriptor: Int32

    package init() throws(ZMQError) {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { throw ZMQError(errno: errno, operation: "pipe") }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        fileDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
    }

    deinit {
        close(fileDescriptor)
        close(writeDescriptor)
    }

    /// Wakes the poller. Never blocks: when the pipe is full a wake-up is already pending.
    package func signal() {
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)
    }

    /// Consumes pending signals; call after the poller reports the descriptor readable.
    package func drain() {
        withUnsafeTemporaryAllocation(byteCount: 256, alignment: 1) { buffer in
            while read(fileDescriptor, buffer.baseAddress, buffer.count) > 0 {}
        }
    }
}
