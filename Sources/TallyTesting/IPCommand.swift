import Foundation

/// Runs iproute2's `ip` for ``VirtualNetwork``, failing with what `ip` wrote on standard error.
enum IPCommand {
    /// Where `ip` is, if installed.
    static let path: String? = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    static func required() throws -> String {
        guard let path else { throw ProcessError("no `ip` command (install iproute2)") }
        return path
    }

    /// Runs `ip arguments…`; returns its standard output; throws unless it exits 0 within 60 seconds. Creating a
    /// namespace can wait many seconds while the kernel still tears down namespaces deleted just before (its
    /// network-namespace cleanup runs asynchronously and holds the lock that creation needs).
    @discardableResult
    static func run(_ arguments: [String]) async throws -> String {
        let result = try await ShortCommand.run(URL(fileURLWithPath: try required()), arguments)
        guard result.succeeded else {
            let outcome = result.status.map { "exit \($0)" } ?? "timeout"
            throw ProcessError("ip \(arguments.joined(separator: " ")) failed (\(outcome)): \(result.errorOutput)")
        }
        return result.output
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
