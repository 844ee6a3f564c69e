import ArgumentParser
import Foundation
import Logging

extension Logger.Level: @retroactive ExpressibleByArgument {}

/// `--log-level` and `--log-format` (env `TALLY_LOG_LEVEL`, `TALLY_LOG_FORMAT`; file keys `log-level`,
/// `log-format`), shared by the executables that run as services.
package struct LoggingOptions: ParsableArguments {
    @Option(name: LoggingSettings.level.flag, help: LoggingSettings.level.help)
    package var logLevel: Logger.Level?

    @Option(name: LoggingSettings.format.flag, help: LoggingSettings.format.help)
    package var logFormat: LogFormat?

    package init() {}

    /// Sets up swift-log once for the process: one line per event on standard error, with metadata, as text or
    /// JSON.
    /// - Important: swift-log allows one bootstrap per process; call this once, from `main`.
    package func bootstrap(label: String, settings: SettingSources) throws -> ProcessLog {
        let level = try settings.resolve(logLevel, LoggingSettings.level)
        let format = try settings.resolve(logFormat, LoggingSettings.format)
        LoggingSystem.bootstrap { label in
            switch format {
            case .text:
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            case .json:
                var handler = JSONLogHandler(label: label, metadataProvider: LoggingSystem.metadataProvider)
                handler.logLevel = level
                return handler
            }
        }
        var logger = Logger(label: label)
        logger.logLevel = level
        return ProcessLog(logger: logger, format: format)
    }
}
