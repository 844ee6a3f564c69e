import Foundation
import TallyTesting
import Testing

/// A broker and a worker started with `TALLY_PARENT_PID` stop by themselves once their parent is killed outright,
/// so a crashed test run or a killed `deploy/local/run` leaves nothing running.
@Suite(.realProcesses) struct ParentWatchTests {
    /// Whether `pid` is a live process (a zombie waiting to be reaped has ended).
    static func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
        return state != "Z" && state != "X"
    }

    @Test func childrenWhoseParentIsKilledStopByThemselves() async throws {
        // The shell starts both with its own pid as their parent, prints their pids, and waits to be killed; their
        // standard output is its own.
        let script = """
            TALLY_PARENT_PID=$$ "$0" --bind tcp://127.0.0.1:0 --log-level warning 2>/dev/null &
            echo "broker-pid $!"
            TALLY_PARENT_PID=$$ "$1" --broker tcp://127.0.0.1:9 --log-level warning 2>/dev/null &
            echo "worker-pid $!"
            sleep 120
            """
        let shell = try ManagedProcess(
            URL(fileURLWithPath: "/bin/sh"), ["-c", script, TallyBinaries.broker.path, TallyBinaries.worker.path],
            name: "parent-shell")
        let broker = try #require(Int32(try await shell.waitForLine(containing: "broker-pid ").split(separator: " ")[1]))
        let worker = try #require(Int32(try await shell.waitForLine(containing: "worker-pid ").split(separator: " ")[1]))
        // Both are up (each starts its watch before it prints where it listens or what it serves) and stay up
        // while their parent lives: for three of the watch's looks at the parent (twice a second), any of which
        // would have stopped them had it taken a live parent for gone.
        _ = try await shell.waitForLine(containing: "listening on")
        _ = try await shell.waitForLine(containing: "serving")
        let threeLooksAtTheParent: Duration = .milliseconds(1500)
        try await Task.sleep(for: threeLooksAtTheParent)
        #expect(Self.isAlive(broker) && Self.isAlive(worker))

        shell.kill9()
        #expect(await eventually(timeout: .seconds(20)) { !Self.isAlive(broker) && !Self.isAlive(worker) })
        if Self.isAlive(broker) { kill(broker, SIGKILL) }
        if Self.isAlive(worker) { kill(worker, SIGKILL) }
    }
}
