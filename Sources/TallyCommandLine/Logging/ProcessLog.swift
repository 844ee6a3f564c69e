import ArgumentParser
import Logging

/// The process's logger once logging is set up, and how the error that ends the process reaches the log.
///
/// ArgumentParser prints an error that ends `run()` as text (`Error: …`, and the usage after a usage error). That
/// is right for a person at a terminal and wrong for a pipeline that reads JSON logs: the one line that says why
/// the process died would be the one line it cannot parse. So with JSON logs that error becomes a `critical` JSON
/// line, and the process exits with the status ArgumentParser would have given it.
package struct ProcessLog: Sendable {
    package let logger: Logger
    package let format: LogFormat

    package init(logger: Logger, format: LogFormat) {
        self.logger = logger
        self.format = format
    }

    /// Runs `body`, the rest of the process's life; with JSON logs an error that ends it is logged, not printed.
    /// - Throws: with text logs, whatever `body` throws; with JSON logs, `ExitCode` 64 for a usage error
    ///   (`ValidationError`), 1 for any other error, or the `ExitCode`/`CleanExit` that `body` threw.
    /// - Parameters:
    ///   - file: where the process runs `body` from, for the line's `file` and `source` (the executable, not this
    ///     file).
    package func run(
        file: String = #fileID, line: UInt = #line, _ body: () async throws -> Void
    ) async throws {
        do {
            try await body()
        } catch let error where format == .json && !(error is ExitCode) && !(error is CleanExit) {
            let usageError = error is ValidationError
            logger.critical(
                "\(error)",
                metadata: [
                    "error.type": "\(String(reflecting: type(of: error)))",
                    "process.exit_status":
                        "\(usageError ? ExitCode.validationFailure.rawValue : ExitCode.failure.rawValue)",
                ], file: file, line: line)
            throw usageError ? ExitCode.validationFailure : ExitCode.failure
        }
    }
}
