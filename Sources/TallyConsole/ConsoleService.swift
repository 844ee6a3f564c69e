import Foundation
import Majordomo
import ServiceLifecycle
import TallyMonitoring

/// The broker's operator console: reads what its recorder took from the broker's events (`ConsoleRecorder`, the
/// broker's observer), moves the recorder's time on once a second while it runs (`run()`, a swift-service-lifecycle service), and answers two read-only
/// routes on the broker's `--http` endpoint:
///
/// - `GET /`: the page (`ConsolePage`), live in a browser;
/// - `GET /console/v1/cluster.json`: the document it reads (`ClusterDocument`), also what `tally top` reads.
///
/// The document is built at most once per `refresh` (`ClusterDocumentCache`), from one detailed snapshot of the
/// broker, however many pages and terminals poll it.
package final class ConsoleService: Service, Sendable {
    /// The path of the document.
    package static let documentPath = "/console/v1/cluster.json"

    package let recorder: ConsoleRecorder
    let cache: ClusterDocumentCache

    /// - Parameters:
    ///   - recorder: what the broker's observer records into (made before the broker, which takes the observer).
    ///   - broker: whose detailed snapshot the document shows.
    ///   - facts: version, start time, CURVE.
    ///   - refresh: how often at most the document is built.
    package init(
        recorder: ConsoleRecorder, broker: Broker, facts: ClusterDocumentBuilder.BrokerFacts,
        refresh: Duration = .seconds(1)
    ) {
        let builder = ClusterDocumentBuilder(facts: facts, refreshSeconds: refresh.seconds)
        self.recorder = recorder
        cache = ClusterDocumentCache(interval: refresh) {
            let snapshot = await broker.snapshot(detailed: true)
            return builder.document(snapshot: snapshot, reading: recorder.reading(), now: Date()).jsonBytes()
        }
    }

    /// Ticks the recorder once a second until the service group shuts down.
    package func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                self.recorder.tick()
            }
        }
    }

    /// The page and the document, for the broker's `MonitoringServer`.
    package var routes: [MonitoringRoute] {
        let cache = self.cache
        return [
            MonitoringRoute(path: "/") {
                let nonce = Self.nonce()
                return MonitoringRoute.Response(
                    headers: Self.commonHeaders.merging([
                        "Content-Type": "text/html; charset=utf-8",
                        "Content-Security-Policy": ConsolePage.contentSecurityPolicy(nonce: nonce),
                    ]) { $1 },
                    body: Array(ConsolePage.html(nonce: nonce).utf8))
            },
            MonitoringRoute(path: Self.documentPath) {
                MonitoringRoute.Response(
                    headers: Self.commonHeaders.merging([
                        "Content-Type": "application/json",
                        "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
                    ]) { $1 },
                    body: await cache.document())
            },
        ]
    }

    /// Headers of both routes: never cached, never sniffed as another type, never framed, no referrer.
    static let commonHeaders = [
        "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY",
        "Referrer-Policy": "no-referrer",
    ]

    /// 128 random bits in hex: a fresh CSP nonce for each page served.
    static func nonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
