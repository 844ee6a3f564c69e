/// Moves sockets created on one thread (wrapped in whatever holds them) to the I/O thread that owns them from then
/// on.
///
/// - Important: `@unchecked Sendable` is sound because the creating thread never touches the value after handing
///   it over, and `take()` is called exactly once, by the receiving thread.
final class SocketHandoff<Value>: @unchecked Sendable {
    private var value: Value?

    init(_ value: Value) { self.value = value }

    func take() -> Value {
        defer { value = nil }
        return value!
    }
}
