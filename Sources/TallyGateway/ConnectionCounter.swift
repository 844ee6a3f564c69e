import NIOCore

/// Counts the gateway's HTTP connections (`tally_gateway_connections_total`, `tally_gateway_open_connections`):
/// a new one is added to each connection's pipeline as it is set up, counts the connection open when it becomes
/// active and closed when it goes inactive.
///
/// A child channel's pipeline is usually set up before the channel is active, so `channelActive` does the counting;
/// `handlerAdded` counts a connection that was already active when its pipeline was set up (with TLS, say), which
/// `channelActive` will not reach again. `counted` keeps the two from counting one connection twice, and a
/// connection that closes before it was counted from being counted closed.
final class ConnectionCounter: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    let metrics: GatewayMetrics
    /// Touched on the channel's event loop only, as every handler's state is.
    private var counted = false

    init(metrics: GatewayMetrics) {
        self.metrics = metrics
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { countOpened() }
    }

    func channelActive(context: ChannelHandlerContext) {
        countOpened()
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if counted {
            counted = false
            metrics.connectionClosed()
        }
        context.fireChannelInactive()
    }

    private func countOpened() {
        guard !counted else { return }
        counted = true
        metrics.connectionOpened()
    }
}
