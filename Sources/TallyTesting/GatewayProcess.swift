import Foundation

/// A `tally-gateway` process for end-to-end tests, listening on a loopback port the kernel picks (`--listen
/// 127.0.0.1:0`), and where it says it listens.
package struct GatewayProcess: Sendable {
    package let process: ManagedProcess
    /// `127.0.0.1:PORT`, as its `listening on http://…` line says.
    package let address: String
    /// `http` or `https`.
    package let scheme: String

    package var host: String { String(address.prefix { $0 != ":" }) }
    package var port: UInt16 { UInt16(address.split(separator: ":").last ?? "") ?? 0 }

    /// Starts a gateway calling `brokers` and waits for its `listening on` line.
    /// - Parameter arguments: more flags (they override the ones given here).
    package static func start(
        brokers: [String], arguments: [String] = [], name: String = "gateway", environment: [String: String] = [:]
    ) async throws -> GatewayProcess {
        let process = try ManagedProcess(
            TallyBinaries.gateway,
            brokers.flatMap { ["--broker", $0] } + ["--listen", "127.0.0.1:0", "--log-level", "notice"] + arguments,
            name: name, environment: environment)
        let line = try await process.waitForLine(containing: "listening on")
        guard let url = line.split(separator: " ").last, let schemeEnd = url.range(of: "://") else {
            throw ProcessError("no address in '\(line)'")
        }
        return GatewayProcess(
            process: process, address: String(url[schemeEnd.upperBound...]),
            scheme: String(url[..<schemeEnd.lowerBound]))
    }

    /// A new keep-alive connection to it.
    package func connect() throws -> HTTPTestConnection {
        try HTTPTestConnection(host: host, port: port)
    }
}
