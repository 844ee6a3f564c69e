import NIOCore

/// Counts the gateway's HTTP connections (`tally_gateway_connections_total`, `tally_gateway_open_connections`):
/// added to each connection's pipeline as it is set up, it counts it open then and closed when it goes inactive.
final class ConnectionCounter: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = NIOAny

    let metrics: GatewayMetrics

    init(metrics: GatewayMetrics) {
        self.metrics = metrics
    }

    /// A connection that closed before its pipeline was set up is not counted: it will not go inactive again.
    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { metrics.connectionOpened() }
    }

    func channelInactive(context: ChannelHandlerContext) {
        metrics.connectionClosed()
        context.fireChannelInactive()
    }
}
