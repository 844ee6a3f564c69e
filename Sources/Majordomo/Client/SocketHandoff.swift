import ZeroMQ

/// Moves a socket created on one thread to the I/O thread that will own it from then on.
///
/// - Important: `@unchecked Sendable` is sound because the creating thread never touches the socket after
///   handing it over, and `take()` is called exactly once, by the receiving thread.
final class SocketHandoff: @unchecked Sendable {
    private var socket: Socket?

    init(_ socket: Socket) { self.socket = socket }

    func take() -> Socket {
        defer { socket = nil }
        return socket!
    }
}
