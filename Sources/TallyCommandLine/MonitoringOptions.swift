import ArgumentParser
import TallyMonitoring

/// Checks the `--http` setting's shape before anything starts.
package enum MonitoringOptions {
    /// `HOST:PORT` (``HostAndPort``), or empty for "off".
    /// - Returns: the address, or `nil` when monitoring is off.
    /// - Throws: `ValidationError` naming the option, its variable and what is wrong.
    package static func validated(_ text: String) throws -> HostAndPort? {
        guard !text.isEmpty else { return nil }
        do {
            return try HostAndPort(parsing: text)
        } catch {
            throw ValidationError(
                "--http (or TALLY_HTTP) '\(text)': \(error); write HOST:PORT, e.g. 0.0.0.0:9100, localhost:9100 or [::1]:9100"
            )
        }
    }
}
