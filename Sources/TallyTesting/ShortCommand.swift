import Foundation

/// A helper program run to completion (`ip`, a one-line fetch), its output captured. Unlike ``ManagedProcess``,
/// made for long-lived servers, it leaves no log file behind, and its output is complete once it returns.
/// Output goes through temporary files, not pipes, so a large output cannot block the program before it exits;
/// the wait polls, so no thread of the cooperative pool is held.
package enum ShortCommand {
    /// How a run ended.
    package struct Result: Sendable {
        /// The exit status; `nil` when the command was killed at its timeout.
        package var status: Int32?
        package var output: String
        package var errorOutput: String

        package var succeeded: Bool { status == 0 }
    }

    /// Runs `executable` with `arguments` and this process's environment plus `environment`; kills it after
    /// `timeout`, a bound for a command that hangs, never a measure: the run ends when the command exits. The
    /// default is generous because a busy two-core machine has been seen to take over ten seconds to start a
    /// program and let it exit.
    package static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(60)
    ) async throws -> Result {
        let directory = FileManager.default.temporaryDirectory
        let outputFile = directory.appendingPathComponent("tally-command-\(UUID().uuidString).out")
        let errorFile = directory.appendingPathComponent("tally-command-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outputFile)
            try? FileManager.default.removeItem(at: errorFile)
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        let timedOut = process.isRunning
        if timedOut {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        return Result(
            status: timedOut ? nil : process.terminationStatus,
            output: (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "",
            errorOutput: (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "")
    }
}
