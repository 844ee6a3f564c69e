import CZeroMQ

/// A received libzmq message kept as it arrived, so that its bytes are never copied into Swift: the storage of a
/// large `Frame`. Sending the frame gives libzmq a copy of the message (`zmq_msg_copy`), which shares the content
/// by reference count; the content is freed when the last holder, this buffer or a libzmq pipe, closes it.
///
/// Only frames larger than `minimumCount` are kept so. libzmq receives a smaller message into a batch buffer that it
/// shares between the messages it holds, and keeping one of them would keep the whole batch; a larger one always
/// has content of its own.
///
/// Immutable once made, and safe to share between threads: it is marked shared at once (a `zmq_msg_copy` of a
/// message not yet shared writes its flags, a first copy made on two threads at once would race there), after
/// which copies only touch libzmq's atomic reference count.
@usableFromInline
final class ReceivedMessageBuffer: @unchecked Sendable {
    /// Frames of at most this many bytes are copied out on receipt (ZeroMQ's default receive batch, `ZMQ_IN_BATCH_SIZE`).
    static let minimumCount = 8192

    private let message: UnsafeMutablePointer<zmq_msg_t>
    @usableFromInline let base: UnsafeRawPointer?
    @usableFromInline let count: Int

    /// Takes over `received` (left empty, to be closed by the caller as usual).
    init(taking received: inout zmq_msg_t) {
        message = .allocate(capacity: 1)
        zmq_msg_init(message)
        zmq_msg_move(message, &received)
        var scratch = zmq_msg_t()
        zmq_msg_init(&scratch)
        zmq_msg_copy(&scratch, message)
        zmq_msg_close(&scratch)
        base = UnsafeRawPointer(zmq_msg_data(message))
        count = zmq_msg_size(message)
    }

    deinit {
        zmq_msg_close(message)
        message.deallocate()
    }

    @inlinable
    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Initializes `copy` (uninitialized) as a message sharing this one's content, for `zmq_msg_send`.
    func share(into copy: UnsafeMutablePointer<zmq_msg_t>) {
        zmq_msg_init(copy)
        zmq_msg_copy(copy, message)
    }
}
