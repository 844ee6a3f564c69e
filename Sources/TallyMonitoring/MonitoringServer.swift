import FlyingFox
import FlyingSocks
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// The HTTP side of a Tally process (`--http`), for operators and orchestrators:
///
/// - `GET /metrics`: Prometheus text format.
/// - `GET /livez`: 200 while the process runs.
/// - `GET /readyz`: 200 when the process can do its job (broker: listening and not draining; worker: registered
///   with a broker for every service), else 503.
/// - Any read-only routes the process adds (`MonitoringRoute`: the broker's console).
package final class MonitoringServer: Service, Sendable {
    /// Where to listen: a host (an IPv4 address, a host name or an IPv6 address) and a port (0: any free one).
    /// The `HOST:PORT` that `--http` parses into, so the executables hand it over as it is.
    package typealias Address = HostAndPort

    let server: HTTPServer
    let address: Address
    let logger: Logger
    /// Set when we stop the server ourselves, so that its "server error" about the closing socket is not logged
    /// as a fault.
    private let stopping = StopFlag()
    let metrics: PrometheusMetrics
    let beforeScrape: @Sendable () async -> Void
    let readiness: @Sendable () async -> Bool
    let routes: [MonitoringRoute]

    /// - Parameters:
    ///   - address: where to listen.
    ///   - metrics: the registry served on `/metrics`.
    ///   - beforeScrape: refreshes gauges (queue depths, live workers) right before `/metrics` renders.
    ///   - readiness: answers `/readyz`.
    ///   - routes: more read-only GET routes (the broker's console).
    /// - Throws: `MonitoringServerError` naming the address when its name does not resolve or it cannot be
    ///   listened on (the port is taken, the address is not this host's): checked here, so that a process fails at
    ///   start, before it says it is ready.
    package init(
        address: Address,
        metrics: PrometheusMetrics,
        beforeScrape: @escaping @Sendable () async -> Void = {},
        readiness: @escaping @Sendable () async -> Bool,
        routes: [MonitoringRoute] = [],
        logger: Logger
    ) throws {
        self.address = address
        self.logger = logger
        let endpoint = try ListenEndpoint(resolving: address)
        if address.port != 0 { try endpoint.checkCanListen(address) }
        server = endpoint.server(logger: FlyingFoxLogger(logger, stopping: stopping))
        self.metrics = metrics
        self.beforeScrape = beforeScrape
        self.readiness = readiness
        self.routes = routes
    }

    /// Serves until graceful shutdown (then finishes open requests for up to a second) or cancellation.
    package func run() async throws {
        await addRoutes()
        do {
            try await withTaskCancellationHandler {
                try await withGracefulShutdownHandler {
                    try await server.run()
                } onGracefulShutdown: { [server, stopping] in
                    stopping.set()
                    Task { await server.stop(timeout: 1) }
                }
            } onCancel: { [stopping] in
                stopping.set()
            }
        } catch  where Task.isShuttingDownGracefully || Task.isCancelled || stopping.isSet {
            // Stopping the server ends `run()` with a socket error; that is the shutdown we asked for.
            logger.debug("monitoring endpoint stopped")
        } catch {
            // Taken between the check in `init` and now, or failing later: the error says where.
            throw ListenEndpoint.isListenFailure(error)
                ? MonitoringServerError.cannotListen(address, reason: ListenEndpoint.reason(error))
                : MonitoringServerError.failed(address, reason: ListenEndpoint.reason(error))
        }
    }

    private func addRoutes() async {
        let (metrics, beforeScrape, readiness) = (self.metrics, self.beforeScrape, self.readiness)
        await server.appendRoute("GET /metrics") { _ in
            await beforeScrape()
            return HTTPResponse(
                statusCode: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: Data(metrics.render()))
        }
        await server.appendRoute("GET /livez") { _ in
            HTTPResponse(statusCode: .ok, headers: [.contentType: "text/plain"], body: Data("ok\n".utf8))
        }
        await server.appendRoute("GET /readyz") { _ in
            await readiness()
                ? HTTPResponse(statusCode: .ok, headers: [.contentType: "text/plain"], body: Data("ready\n".utf8))
                : HTTPResponse(
                    statusCode: .serviceUnavailable, headers: [.contentType: "text/plain"],
                    body: Data("not ready\n".utf8))
        }
        for route in routes {
            await server.appendRoute(HTTPRoute(method: .GET, path: route.path)) { _ in
                let response = await route.respond()
                var headers = HTTPHeaders()
                for (name, value) in response.headers { headers[HTTPHeader(name)] = value }
                return HTTPResponse(
                    statusCode: HTTPStatusCode(response.status, phrase: response.status == 200 ? "OK" : "Error"),
                    headers: headers, body: Data(response.body))
            }
        }
    }

    /// The address actually listened on (the port is resolved when 0 was asked for).
    package func waitUntilListening() async throws -> Address {
        // Binding is immediate; the wait only guards against a server task that never runs. A process started on
        // a machine under load must not give up on its own monitoring port for that.
        try await server.waitUntilListening(timeout: 30)
        switch await server.listeningAddress {
        case .ip4(let host, let port)?, .ip6(let host, let port)?: return Address(host: host, port: port)
        default: return address
        }
    }
}

/// Whether a server is being stopped on purpose.
final class StopFlag: Sendable {
    private let stopped = Atomic<Bool>(false)

    func set() { stopped.store(true, ordering: .relaxed) }

    var isSet: Bool { stopped.load(ordering: .relaxed) }
}

/// Routes FlyingFox's own log lines into swift-log.
struct FlyingFoxLogger: FlyingSocks.Logging {
    let logger: Logger
    let stopping: StopFlag

    init(_ logger: Logger, stopping: StopFlag) {
        self.logger = logger
        self.stopping = stopping
    }

    func logDebug(_ debug: @autoclosure () -> String) { logger.trace("\(debug())") }
    func logInfo(_ info: @autoclosure () -> String) { logger.trace("\(info())") }
    func logWarning(_ warning: @autoclosure () -> String) { logger.notice("\(warning())") }
    func logError(_ error: @autoclosure () -> String) { logger.warning("\(error())") }
    /// FlyingFox reports the end of `run()` as critical even when we stopped it: that is a debug line then.
    func logCritical(_ critical: @autoclosure () -> String) {
        if stopping.isSet { logger.debug("\(critical())") } else { logger.error("\(critical())") }
    }
}
