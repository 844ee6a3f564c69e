import Foundation

/// Runs iproute2's `ip` for ``VirtualNetwork``: awaited without blocking a thread of the cooperative pool (the
/// command runs as a ``ManagedProcess`` that is polled), and failing with what `ip` wrote on standard error.
enum IPCommand {
    /// Where `ip` is, if installed.
    static let path: String? = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    static func required() throws -> String {
        guard let path else { throw ProcessError("no `ip` command (install iproute2)") }
        return path
    }

    /// Runs `ip arguments…`; throws unless it exits 0 within 10 seconds.
    static func run(_ arguments: [String]) async throws {
        let process = try ManagedProcess(URL(fileURLWithPath: try required()), arguments, name: "ip")
        let status = await process.waitForExit(timeout: .seconds(10))
        guard status == 0 else {
            let outcome = status.map { "exit \($0)" } ?? "timeout"
            throw ProcessError("ip \(arguments.joined(separator: " ")) failed (\(outcome)): \(process.errorOutput)")
        }
    }

    /// The lines `ip arguments…` prints; empty on failure. Waits on the calling thread (`ip` answers in
    /// milliseconds): only for the rare clean-up of what a killed test run left behind.
    static func outputBlocking(_ arguments: [String]) -> [String] {
        guard let path else { return [] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return [] }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Runs `ip` and waits on the calling thread: only for checks made before any test runs.
    static func runBlocking(_ path: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
