import Synchronization
import ZeroMQ

/// Where a broker, worker or client is in its one life: made, running (after its first `start`), stopped (for
/// good). All three share it, so that starting twice does nothing, and starting after a stop, or using a role that
/// never started, is told apart rather than left to hang.
final class RoleLifecycle: Sendable {
    enum State: Sendable {
        case created, running, stopped
    }

    private let state = Mutex(State.created)

    var current: State { state.withLock { $0 } }

    /// Moves a made role to running; returns the state it was in, so that the caller starts it only if that was
    /// `.created`.
    func beginStart() -> State {
        state.withLock { state in
            defer { if state == .created { state = .running } }
            return state
        }
    }

    func markStopped() {
        state.withLock { $0 = .stopped }
    }
}

extension ZMQError {
    /// `ETERM` for a role started after it stopped: its context and sockets are gone, make a new one.
    static func stopped(_ role: String) -> ZMQError {
        ZMQError(errno: ZMQError.terminated.errno, operation: "start: the \(role) was stopped; make a new one")
    }
}
