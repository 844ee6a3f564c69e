import ArgumentParser
import TallyMonitoring

/// The settings of a program that serves metrics and health over HTTP (`--http`): the broker, the worker, the
/// gateway.
package protocol MonitoredProgramSettings {
    static var http: Setting<String> { get }
}

/// `--http` as `Settings` declares it, and the check of its shape before anything starts.
package struct MonitoringOptions<Settings: MonitoredProgramSettings>: ParsableArguments {
    @Option(name: Settings.http.flag, help: Settings.http.help)
    var http: String?

    package init() {}

    /// The settings these options read, for the catalog of every program that takes them.
    package static var settings: [SettingDocumentation] { [Settings.http.documentation] }

    /// The address to serve on, or `nil` when monitoring is off.
    /// - Throws: `ValidationError`, as ``validated(_:)`` does.
    package func address(_ settings: SettingSources) throws -> HostAndPort? {
        try Self.validated(try settings.resolve(http, Settings.http))
    }

    /// `HOST:PORT` (``HostAndPort``), or empty for "off".
    /// - Returns: the address, or `nil` when monitoring is off.
    /// - Throws: `ValidationError` naming the option, its variable and what is wrong.
    package static func validated(_ text: String) throws -> HostAndPort? {
        guard !text.isEmpty else { return nil }
        do {
            return try HostAndPort(parsing: text)
        } catch {
            throw ValidationError(
                "--\(Settings.http.name) (or \(Settings.http.environmentVariable)) '\(text)': \(error); write "
                    + "HOST:PORT, e.g. 0.0.0.0:9100, localhost:9100 or [::1]:9100")
        }
    }
}
