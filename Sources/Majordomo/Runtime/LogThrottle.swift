import Logging

/// Keeps one peer's flood of a warning from flooding the log: per kind of line and peer, the first occurrence is
/// logged at once, repeats within `interval` are only counted, and the count is logged in one line when the
/// interval is over.
///
/// A peer that floods HEARTBEATs and never reads, or a client sending garbage in a loop, would otherwise make an
/// I/O loop write megabytes a second. Keys are bounded too: past `maxKeys` distinct (kind, peer) pairs, further
/// peers share one key per kind, so that a peer inventing identities cannot grow the table either.
struct LogThrottle: Sendable {
    struct Key: Hashable, Sendable {
        let kind: String
        /// `nil`: every peer past the key limit, together.
        let peer: String?
    }

    private struct Window: Sendable {
        let opened: Duration
        var suppressed = 0
        /// The metadata of the first line, repeated on the summary.
        let metadata: Logger.Metadata
        let level: Logger.Level
    }

    let interval: Duration
    let maxKeys: Int
    private var windows: [Key: Window] = [:]

    init(interval: Duration = .seconds(10), maxKeys: Int = 64) {
        self.interval = interval
        self.maxKeys = maxKeys
    }

    /// Logs `message` unless the same kind of line for the same peer was logged less than `interval` ago.
    /// - Parameters:
    ///   - kind: what the line says, independent of the peer (usually the message itself).
    ///   - peer: who caused it; lines of different peers are throttled apart.
    mutating func log(
        _ level: Logger.Level, _ message: String, kind: String? = nil, peer: String?, metadata: Logger.Metadata,
        now: Duration, to logger: Logger
    ) {
        guard logger.logLevel <= level else { return }
        let kind = kind ?? message
        var key = Key(kind: kind, peer: peer)
        if windows[key] == nil && windows.count >= maxKeys { key = Key(kind: kind, peer: nil) }
        if windows[key] != nil {
            windows[key]!.suppressed += 1
            return
        }
        if windows.count >= maxKeys + 16 {
            // Even the shared keys are full (very many kinds at once): count nothing more, log nothing more, until
            // the windows close.
            return
        }
        windows[key] = Window(opened: now, metadata: metadata, level: level)
        logger.log(level: level, "\(message)", metadata: metadata)
    }

    /// Closes the windows older than `interval` (every window, when `all`: the loop is ending), logging how many
    /// lines each held back.
    mutating func flush(now: Duration, all: Bool = false, to logger: Logger) {
        for (key, window) in windows where all || now - window.opened >= interval {
            windows[key] = nil
            guard window.suppressed > 0 else { continue }
            var metadata = window.metadata
            metadata["log.repeats"] = "\(window.suppressed)"
            if key.peer == nil { metadata["log.peers"] = "several" }
            let seconds = Double((min(now - window.opened, interval) / .milliseconds(100)).rounded()) / 10
            logger.log(
                level: window.level, "\(key.kind) (\(window.suppressed) more in \(seconds) s)", metadata: metadata)
        }
    }

    /// When `flush` next has a window to close.
    var nextFlush: Duration? {
        windows.values.lazy.map(\.opened).min().map { $0 + interval }
    }
}
