import Logging

/// `--log-level` and `--log-format`, shared by the programs that run as services.
package enum LoggingSettings {
    package static let level = Setting(
        "log-level", "trace, debug, info, notice, warning, error or critical.", default: Logger.Level.info)
    package static let format = Setting(
        "log-format", "text (one line per event for people) or json (one JSON object per line for log pipelines).",
        default: LogFormat.text)

    static let all = [level.documentation, format.documentation]
}
