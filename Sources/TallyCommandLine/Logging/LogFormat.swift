import ArgumentParser

/// How a process writes its log lines to standard error.
///
/// `text` is for people reading a terminal; `json` is for log pipelines (Loki, Elasticsearch, CloudWatch, `jq`),
/// which otherwise have to guess where a message ends and metadata begins in a line that a request's own data
/// can break.
package enum LogFormat: String, CaseIterable, Sendable, ExpressibleByArgument {
    /// swift-log's `StreamLogHandler`: `2026-11-23T15:20:01+0000 info tally.broker: key=value [Source] message`.
    case text
    /// One JSON object per line with stable keys (``JSONLogLine``).
    case json
}
