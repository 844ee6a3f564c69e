import ArgumentParser
import Foundation
import Logging

extension Logger.Level: @retroactive ExpressibleByArgument {}

/// `--log-level` (env `TALLY_LOG_LEVEL`), shared by every executable.
public struct LoggingOptions: ParsableArguments {
    @Option(
        name: .long,
        help: "trace, debug, info, notice, warning, error or critical. [env: TALLY_LOG_LEVEL] (default: info)")
    public var logLevel: Logger.Level?

    public init() {}

    /// Sets up swift-log once for the process: one line per event on standard error, with metadata.
    public func bootstrap(label: String, settings: SettingSources) throws -> Logger {
        let level = try settings.resolve(logLevel, "log-level", default: Logger.Level.info)
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var logger = Logger(label: label)
        logger.logLevel = level
        return logger
    }
}
