import Foundation
import Logging
import Synchronization

/// Sends ended spans to an OpenTelemetry collector (or any OTLP receiver) by OTLP/HTTP with JSON bodies: batches
/// of up to 512 spans, at least once a second, POSTed to `<endpoint>/v1/traces` from a thread of its own.
///
/// `export` only appends to a bounded buffer (4096 spans; beyond it spans are dropped and counted), so the broker's
/// and worker's I/O threads never wait for the network. A receiver that is down costs a warning, once per outage,
/// and the batches of that time. Plain `http://` only: run a collector beside the process for TLS and retries.
package final class OTLPHTTPExporter: SpanExporter {
    package let endpoint: Endpoint
    let serviceName: String
    let version: String
    let logger: Logger

    static let maxBatch = 512
    static let maxBuffered = 4096

    private struct State {
        var buffer: [FinishedSpan] = []
        var dropped = 0
        var stopping = false
        var stopped = false
    }
    private let state = Mutex(State())
    private let wakeup = NSCondition()

    /// Where spans go: host, port and path of an `http://` URL.
    package struct Endpoint: Sendable, Hashable, CustomStringConvertible {
        package let host: String
        package let port: Int
        package let path: String

        /// `http://HOST[:PORT][/PATH]`: the base URL of an OTLP/HTTP receiver (port 4318 unless given); spans go
        /// to `/v1/traces` under it unless the path already ends so.
        /// - Throws: `EndpointError` for anything else (another scheme, no host).
        package init(parsing text: String) throws(EndpointError) {
            guard let url = URLComponents(string: text), url.scheme?.lowercased() == "http",
                let host = url.host, !host.isEmpty
            else {
                throw EndpointError(
                    description: "'\(text)' is not an http:// URL with a host (e.g. http://localhost:4318)")
            }
            self.host = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
            self.port = url.port ?? 4318
            let base = url.path.hasSuffix("/") ? String(url.path.dropLast()) : url.path
            self.path = base.hasSuffix("/v1/traces") ? base : base + "/v1/traces"
        }

        package var description: String {
            "http://\(host.contains(":") ? "[\(host)]" : host):\(port)\(path)"
        }
    }

    package struct EndpointError: Error, CustomStringConvertible {
        package let description: String
    }

    /// Starts the sending thread.
    /// - Parameters:
    ///   - endpoint: the receiver.
    ///   - serviceName: the `service.name` resource attribute (`tally-broker`, `tally-worker`).
    ///   - version: `service.version` and the scope's version.
    ///   - logger: for failed sends (warning, once per outage) and recoveries.
    package init(endpoint: Endpoint, serviceName: String, version: String, logger: Logger) {
        self.endpoint = endpoint
        self.serviceName = serviceName
        self.version = version
        self.logger = logger
        let thread = Thread { [self] in run() }
        thread.name = "tally-otlp"
        thread.start()
    }

    package func export(_ span: FinishedSpan) {
        let wake = state.withLock { state -> Bool in
            guard !state.stopping else { return false }
            guard state.buffer.count < Self.maxBuffered else {
                state.dropped += 1
                return false
            }
            state.buffer.append(span)
            return state.buffer.count == Self.maxBatch
        }
        if wake { self.wake() }
    }

    private func wake() {
        wakeup.lock()
        wakeup.signal()
        wakeup.unlock()
    }

    /// Sends what is buffered, then stops the thread; waits at most about two send timeouts.
    package func shutdown() async {
        state.withLock { $0.stopping = true }
        wake()
        for _ in 0..<100 {
            if state.withLock({ $0.stopped }) { return }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    private func run() {
        let post = HTTPPost(host: endpoint.host, port: endpoint.port, path: endpoint.path, timeout: .seconds(2))
        var failing = false
        while true {
            wakeup.lock()
            if state.withLock({ $0.buffer.count < Self.maxBatch && !$0.stopping }) {
                _ = wakeup.wait(until: Date().addingTimeInterval(1))
            }
            wakeup.unlock()
            let (batch, dropped, stopping) = state.withLock { state in
                let batch = Array(state.buffer.prefix(Self.maxBatch))
                state.buffer.removeFirst(batch.count)
                defer { state.dropped = 0 }
                return (batch, state.dropped, state.stopping && state.buffer.isEmpty)
            }
            if dropped > 0 {
                logger.warning(
                    "spans dropped: the OTLP export buffer was full",
                    metadata: ["otlp.dropped_spans": "\(dropped)", "otlp.endpoint": "\(endpoint)"])
            }
            if !batch.isEmpty { failing = send(batch, with: post, failing: failing) }
            if stopping { break }
        }
        state.withLock { $0.stopped = true }
    }

    /// Posts one batch; returns whether the receiver is failing now.
    private func send(_ batch: [FinishedSpan], with post: HTTPPost, failing: Bool) -> Bool {
        let request = OTLPTraceRequest(serviceName: serviceName, version: version, spans: batch)
        let outcome: String?
        do {
            let body = try JSONEncoder().encode(request)
            let status = try post.post(Array(body), contentType: "application/json")
            outcome = (200..<300).contains(status) ? nil : "HTTP status \(status)"
        } catch {
            outcome = "\(error)"
        }
        if let outcome {
            if !failing {
                logger.warning(
                    "OTLP export failed; spans are dropped until the receiver answers",
                    metadata: [
                        "otlp.endpoint": "\(endpoint)", "error.message": "\(outcome)", "otlp.spans": "\(batch.count)",
                    ])
            }
            return true
        }
        if failing { logger.info("OTLP export works again", metadata: ["otlp.endpoint": "\(endpoint)"]) }
        return false
    }
}
