import Foundation
import Synchronization

/// A child process for end-to-end tests: started with arguments, its standard output read line by line, stopped
/// with SIGTERM or SIGKILL, and always killed when the test lets go of it, so a failing test leaves no process
/// behind.
package final class ManagedProcess: Sendable {
    package let name: String
    private let process: Process
    private let lines = LineCollector()
    private let errorLog: URL

    /// Starts `executable` with `arguments`; its standard error goes to a log file named after the process
    /// (`$TMPDIR/tally-test-<name>-<uuid>.log`, deleted with this object unless `TALLY_KEEP_TEST_LOGS` is set).
    package init(
        _ executable: URL, _ arguments: [String], name: String? = nil, environment: [String: String] = [:]
    ) throws {
        self.name = name ?? executable.lastPathComponent
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        // A child outlives a crashed test run otherwise (see `ParentWatch`): the Tally binaries end themselves
        // once this process is gone.
        var childEnvironment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        childEnvironment["TALLY_PARENT_PID"] = String(getpid())
        process.environment = childEnvironment
        let output = Pipe()
        process.standardOutput = output
        errorLog = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tally-test-\(self.name)-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errorLog)
        process.standardInput = FileHandle.nullDevice
        self.process = process
        try process.run()
        // Standard output is read by a thread of its own with blocking reads until end of file, not by a
        // `readabilityHandler`: that handler is a dispatch source on the pipe, and a pipe closed while its source is
        // still registered (a process dropped before its output ended) lets libdispatch's epoll loop meet the file
        // descriptor again after it is reused, by a socket say, and crash the whole test run in
        // `_dispatch_event_loop_drain` (seen once in a full run).
        let lines = self.lines
        let reader = output.fileHandleForReading
        Thread.detachNewThread {
            while case let data = reader.availableData, !data.isEmpty { lines.append(data) }
            lines.finish()
        }
    }

    /// Kills the process if it still runs and deletes its standard-error log, unless `TALLY_KEEP_TEST_LOGS` is
    /// set: failures already quote the log's tail, and hundreds of runs must not fill the temporary directory.
    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        if ProcessInfo.processInfo.environment["TALLY_KEEP_TEST_LOGS"] == nil {
            try? FileManager.default.removeItem(at: errorLog)
        }
    }

    package var processIdentifier: Int32 { process.processIdentifier }

    package var isRunning: Bool { process.isRunning }

    /// Standard output so far, line by line.
    package var output: [String] { lines.lines }

    /// What the process wrote to standard error so far.
    package var errorOutput: String { (try? String(contentsOf: errorLog, encoding: .utf8)) ?? "" }

    /// Waits until a line of standard output contains `marker`; returns that line.
    package func waitForLine(containing marker: String, timeout: Duration = .seconds(30)) async throws -> String {
        var deadline = PatientDeadline(timeout: timeout)
        while !deadline.hasPassed {
            if let line = output.first(where: { $0.contains(marker) }) { return line }
            guard process.isRunning else { break }
            try await deadline.sleep(for: .milliseconds(20))
        }
        // A late line may still be in the pipe when the process has just exited.
        try? await Task.sleep(for: .milliseconds(50))
        if let line = output.first(where: { $0.contains(marker) }) { return line }
        throw ProcessError(
            "\(name) did not print '\(marker)' (\(state)); stdout:\n\(output.suffix(20).joined(separator: "\n"))\n"
                + "stderr:\n\(errorOutput.suffix(2000))")
    }

    /// Running, or how it ended (an exit status, or the signal that ended it).
    var state: String {
        guard !process.isRunning else { return "running" }
        switch process.terminationReason {
        case .exit: return "exited with status \(process.terminationStatus)"
        case .uncaughtSignal: return "ended by signal \(process.terminationStatus)"
        @unknown default: return "ended (\(process.terminationStatus))"
        }
    }

    /// Sends SIGTERM (graceful shutdown).
    package func terminate() { if process.isRunning { kill(process.processIdentifier, SIGTERM) } }

    /// Sends SIGSTOP and returns once every thread of the process has stopped: the process stalls as a whole (its
    /// sockets stay open, nothing reads or answers them) until `resume()`. A signal is delivered when each thread
    /// is next scheduled, so on a busy machine a thread could otherwise still answer after `kill` returned.
    package func suspend() {
        guard process.isRunning else { return }
        let pid = process.processIdentifier
        kill(pid, SIGSTOP)
        let hangGuard = ContinuousClock.now + .seconds(30)
        while !Self.allThreadsStopped(pid), process.isRunning, ContinuousClock.now < hangGuard { usleep(1_000) }
    }

    /// Whether every thread of `pid` is in state `T` (stopped by a signal) or `t` (traced), from
    /// `/proc/PID/task/*/stat`.
    private static func allThreadsStopped(_ pid: Int32) -> Bool {
        let tasks = "/proc/\(pid)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks), !threads.isEmpty else {
            return false
        }
        return threads.allSatisfy { thread in
            guard let stat = try? String(contentsOfFile: "\(tasks)/\(thread)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
            return state == "T" || state == "t"
        }
    }

    /// Sends SIGCONT to a suspended process.
    package func resume() { if process.isRunning { kill(process.processIdentifier, SIGCONT) } }

    /// Sends SIGKILL: the process dies without a word to its peers.
    package func kill9() { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

    /// Waits for the process to exit; returns its status, or `nil` if it is still running at the timeout.
    @discardableResult
    package func waitForExit(timeout: Duration = .seconds(15)) async -> Int32? {
        var deadline = PatientDeadline(timeout: timeout)
        while process.isRunning, !deadline.hasPassed {
            // A cancelled test waits here too, up to the deadline, for its processes to go: it is cleaning up.
            try? await deadline.sleep(for: .milliseconds(20))
        }
        guard !process.isRunning else { return nil }
        // Its standard output, read on a thread of its own, up to the end of the pipe: what it printed is all there
        // once this returns.
        while !lines.isFinished, !deadline.hasPassed {
            try? await deadline.sleep(for: .milliseconds(5))
        }
        return process.terminationStatus
    }
}

/// A failure of a test process.
package struct ProcessError: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) { self.description = description }
}

/// Splits a byte stream into lines as it arrives.
final class LineCollector: Sendable {
    private let state = Mutex<(lines: [String], pending: [UInt8])>(([], []))

    func append(_ data: Data) {
        state.withLock { state in
            state.pending.append(contentsOf: data)
            while let newline = state.pending.firstIndex(of: UInt8(ascii: "\n")) {
                state.lines.append(String(decoding: state.pending[..<newline], as: UTF8.self))
                state.pending.removeSubrange(...newline)
            }
        }
    }

    var lines: [String] { state.withLock { $0.lines } }

    private let finished = Atomic(false)

    /// The stream ended (end of file).
    func finish() { finished.store(true, ordering: .releasing) }

    var isFinished: Bool { finished.load(ordering: .acquiring) }
}
