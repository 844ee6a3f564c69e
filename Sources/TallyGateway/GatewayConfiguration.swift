import NIOSSL

/// How a gateway listens and what it accepts: plain values, decided by the executable's settings.
package struct GatewayConfiguration: Sendable {
    /// Where to listen: a host (an address or a name) and a port (0: any free one).
    package var host: String
    package var port: Int
    /// The largest request body; a larger one is answered `payload_too_large` (413) before it is read whole.
    package var maxBodyBytes: Int
    /// The most bytes of headers a request may have (and of any one header); more is answered 400 by the HTTP
    /// parser and the connection closed.
    package var maxHeaderBytes: Int
    /// The most headers a request may have.
    package var maxHeaderCount = 100
    /// The most connections open at once; past it the gateway stops accepting until one closes.
    package var maxConnections: Int
    /// How long a keep-alive connection may wait for its next request.
    package var idleTimeout: Duration
    package var timeouts: Timeouts
    /// The API keys, when callers must present one; `nil` for none.
    package var apiKeys: APIKeys?
    /// TLS, when the gateway serves HTTPS itself; `nil` for plain HTTP (on loopback, or behind a proxy that
    /// terminates TLS).
    package var tls: TLSConfiguration?

    package init(
        host: String, port: Int, maxBodyBytes: Int, maxHeaderBytes: Int, maxConnections: Int,
        idleTimeout: Duration, timeouts: Timeouts, apiKeys: APIKeys? = nil, tls: TLSConfiguration? = nil
    ) {
        self.host = host
        self.port = port
        self.maxBodyBytes = maxBodyBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxConnections = maxConnections
        self.idleTimeout = idleTimeout
        self.timeouts = timeouts
        self.apiKeys = apiKeys
        self.tls = tls
    }
}
