import Foundation
import Logging
import TallyClient

/// What the backend reads from its environment, checked once at start:
///
/// - `TALLY_BROKERS`: broker endpoints, comma-separated; default `tcp://127.0.0.1:5555`.
/// - `TALLY_CURVE_SECRET_KEY` and `TALLY_CURVE_SERVER_KEY`, both or neither: this backend's `NAME.key` file (from
///   `tally keys`) and the broker's public key or `.pub` file; without them the connection is plaintext.
/// - `HTTP_HOST`, `HTTP_PORT`: where to serve; default `127.0.0.1`, `8080` (`0`: any free port, printed at start).
/// - `LOG_LEVEL`: default `info`.
struct Settings {
    /// How long one HTTP request may wait for Tally, retries included; the app's own timeout is longer.
    static let tallyTimeout: Duration = .seconds(2)

    var tally: TallyClientConfiguration
    var host: String
    var port: Int
    var logLevel: Logger.Level

    /// - Throws: `SettingsError` naming the variable whose value cannot work.
    init(environment: [String: String]) throws(SettingsError) {
        let brokers = (environment["TALLY_BROKERS"] ?? "tcp://127.0.0.1:5555")
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !brokers.isEmpty else { throw SettingsError("TALLY_BROKERS", "names no broker") }
        tally = TallyClientConfiguration(brokers: brokers)
        tally.timeout = Self.tallyTimeout
        switch (environment["TALLY_CURVE_SECRET_KEY"], environment["TALLY_CURVE_SERVER_KEY"]) {
        case (nil, nil):
            break
        case (let secretKeyFile?, let serverKey?):
            do {
                tally.security = try .curve(clientSecretKeyFile: secretKeyFile, serverPublicKey: serverKey)
            } catch {
                throw SettingsError("TALLY_CURVE_SECRET_KEY", error.message)
            }
        default:
            throw SettingsError(
                "TALLY_CURVE_SECRET_KEY", "TALLY_CURVE_SECRET_KEY and TALLY_CURVE_SERVER_KEY go together")
        }
        host = environment["HTTP_HOST"] ?? "127.0.0.1"
        let port = environment["HTTP_PORT"] ?? "8080"
        guard let number = Int(port), (0...65535).contains(number) else {
            throw SettingsError("HTTP_PORT", "'\(port)' is not a port number")
        }
        self.port = number
        let level = environment["LOG_LEVEL"] ?? "info"
        guard let logLevel = Logger.Level(rawValue: level) else {
            throw SettingsError("LOG_LEVEL", "'\(level)' is not one of trace, debug, info, notice, warning, error")
        }
        self.logLevel = logLevel
    }
}

/// A setting that cannot work, named by its variable.
struct SettingsError: Error, CustomStringConvertible {
    var variable: String
    var problem: String

    init(_ variable: String, _ problem: String) {
        self.variable = variable
        self.problem = problem
    }

    var description: String { "\(variable): \(problem)" }
}
