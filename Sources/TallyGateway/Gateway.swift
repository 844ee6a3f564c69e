import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import TallyClient

/// tally-gateway's HTTP server: HTTP/1.1 with keep-alive (HummingbirdCore on SwiftNIO), TLS when configured,
/// answering through one TallyClient (`GatewayResponder`). Stateless: any number of gateways may stand behind a
/// load balancer, each with its own client connected to every broker.
///
/// A `Service`: `run()` listens until the service group shuts down, then stops taking connections, lets the
/// requests in progress finish and closes. Give it before the client in the group, so that the client stops last.
package final class Gateway: Service, Sendable {
    let configuration: GatewayConfiguration
    let responder: GatewayResponder
    let onListening: @Sendable (SocketAddress) -> Void
    let logger: Logger

    /// - Parameters:
    ///   - client: the client every call goes through; it runs as a service of its own.
    ///   - metrics: what to record, when `/metrics` is served.
    ///   - onListening: called once with the address listened on (the port resolved when 0 was asked for).
    package init(
        configuration: GatewayConfiguration, client: TallyClient, metrics: GatewayMetrics?, logger: Logger,
        onListening: @escaping @Sendable (SocketAddress) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.responder = GatewayResponder(
            client: client, configuration: configuration, methods: .v1, ids: RequestIDs(), metrics: metrics,
            logger: logger)
        self.onListening = onListening
        self.logger = logger
    }

    package func run() async throws {
        let responder = self.responder
        let metrics = responder.metrics
        let http = HTTP1Channel(
            responder: { request, writer, channel in
                try await responder.respond(to: request, writer: writer, channel: channel)
            },
            configuration: HTTP1Channel.Configuration(
                additionalChannelHandlers: metrics.map { [ConnectionCounter(metrics: $0)] } ?? [],
                idleTimeout: .nanoseconds(Int64(configuration.idleTimeout / .nanoseconds(1))),
                httpDecoderConfiguration: .init(
                    maxHeaderFieldSize: configuration.maxHeaderBytes, maxHeaderListSize: configuration.maxHeaderBytes,
                    maxHeaderFieldCount: configuration.maxHeaderCount)))
        if let tls = configuration.tls {
            try await serve(TLSChannel(http, tlsConfiguration: tls))
        } else {
            try await serve(http)
        }
    }

    private func serve<Channel: ServerChildChannel>(_ childChannel: Channel) async throws {
        let onListening = self.onListening
        let server = Server(
            childChannelSetup: childChannel,
            configuration: ServerConfiguration(
                address: .hostname(configuration.host, port: configuration.port),
                availableConnectionsDelegate: MaximumAvailableConnections(configuration.maxConnections, logger: logger)),
            onServerRunning: { channel in
                if let address = channel.localAddress { onListening(address) }
            },
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton, logger: logger)
        try await server.run()
    }
}
