import Logging

/// The swift-log handler behind `--log-format json`: every event becomes one ``JSONLogLine``.
///
/// Metadata is merged as `StreamLogHandler` merges it, so both formats carry the same keys: the handler's own
/// metadata, then the metadata provider's (where task-local context such as a trace id comes from), then the
/// event's; an error attached to the event adds `error.message` and `error.type`.
package struct JSONLogHandler: LogHandler {
    package var logLevel: Logger.Level = .info
    package var metadata: Logger.Metadata = [:]
    package var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let output: @Sendable ([UInt8]) -> Void

    /// - Parameters:
    ///   - label: the logger's label, written as `logger`.
    ///   - metadataProvider: contextual metadata added to every line.
    ///   - output: receives each line, newline included; standard error (``StandardErrorLines``) in the binaries.
    package init(
        label: String, metadataProvider: Logger.MetadataProvider? = nil,
        output: @escaping @Sendable ([UInt8]) -> Void = StandardErrorLines.write
    ) {
        self.label = label
        self.metadataProvider = metadataProvider
        self.output = output
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get(), !provided.isEmpty {
            merged.merge(provided) { _, provided in provided }
        }
        if let explicit = event.metadata, !explicit.isEmpty {
            merged.merge(explicit) { _, explicit in explicit }
        }
        if let error = event.error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        let line = JSONLogLine(
            timestamp: LogTimestamp.now(), level: event.level, logger: label, message: event.message.description,
            source: event.source, file: event.file, line: event.line, metadata: merged)
        output(line.bytes)
    }
}
