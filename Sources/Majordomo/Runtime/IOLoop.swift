import Logging
import ZeroMQ

/// Whether a loop goes on after a command or a turn.
enum LoopControl: Sendable {
    case proceed
    case stop
}

/// The shape of every role's I/O loop — broker, worker and client alike. Its thread waits on one `PollSet` (its
/// sockets, their monitors and its inbox's wake-up) until the earliest deadline of its state machine; executes the
/// commands other threads posted; lets the machine react to what the ready sockets hold and to the time; and
/// carries out the actions the machine asked for, sending what a turn produced together at its end. The loop moves
/// bytes and time; the machine decides.
protocol IOLoop {
    associatedtype Command: Sendable

    var inbox: Inbox<Command> { get }
    var inboxItem: PollSet.Item { get }
    var polls: PollSet { get set }
    var clock: MonotonicClock { get }
    var logger: Logger { get }

    /// Work that must not wait for the poll (the client's tasks on its thread); `.stop` ends the loop.
    mutating func prepareTurn() -> LoopControl
    /// Readies the poll set for the wait (items opened or closed, writability watched while messages wait) and
    /// says when the loop must wake though nothing is ready: its machine's next deadline; `nil` to wait for the
    /// sockets.
    mutating func prepareWait() -> Duration?
    /// Handles one command another thread posted; `.stop` ends the loop.
    mutating func execute(_ command: Command) -> LoopControl
    /// After the wait: reads what the ready items hold, runs what is due and carries out the actions; `.stop` ends
    /// the loop.
    mutating func serveTurn() -> LoopControl
}

extension IOLoop {
    mutating func prepareTurn() -> LoopControl { .proceed }

    /// Turns until a command or a turn says stop, or the poll fails.
    /// - Returns: the commands of the batch that stopped the loop which came after the stop, never executed: the
    ///   loop answers them as it ends, with what is left in its inbox.
    mutating func runTurns() -> [Command] {
        while true {
            guard prepareTurn() == .proceed else { return [] }
            let timeout = prepareWait().map { max(.zero, $0 - clock.now) }
            do {
                try polls.poll(timeout: timeout)
            } catch {
                logger.error("poll failed; the I/O loop stops", metadata: ["error": "\(error)"])
                return []
            }
            if polls.isReadable(inboxItem), let unexecuted = executeInOrder(inbox.takeAll()) { return unexecuted }
            guard serveTurn() == .proceed else { return [] }
        }
    }

    /// Executes `commands` in order.
    /// - Returns: `nil` when all were executed; after a `.stop`, the commands behind it.
    mutating func executeInOrder(_ commands: [Command]) -> [Command]? {
        for (position, command) in commands.enumerated() {
            if execute(command) == .stop { return Array(commands[(position + 1)...]) }
        }
        return nil
    }
}
