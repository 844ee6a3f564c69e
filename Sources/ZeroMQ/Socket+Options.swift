import CZeroMQ

/// A typed libzmq socket option. `Value` decides how it is passed: `Int32`, `Int64`, `Bool` (0/1),
/// `Duration` (whole milliseconds), `String` (text such as a ZAP domain or a Z85 key) or `[UInt8]` (binary).
package struct SocketOption<Value>: Sendable, Hashable {
    package let code: Int32
    package let name: String

    package init(code: Int32, name: String) {
        self.code = code
        self.name = name
    }
}

extension SocketOption where Value == Duration {
    /// How long a closing socket keeps trying to deliver queued messages.
    package static var linger: Self { .init(code: ZMQ_LINGER, name: "ZMQ_LINGER") }
    /// ZMTP heartbeat (PING) interval on the connection; 0 disables.
    package static var heartbeatInterval: Self { .init(code: ZMQ_HEARTBEAT_IVL, name: "ZMQ_HEARTBEAT_IVL") }
    /// How long to wait for a PONG before closing the connection.
    package static var heartbeatTimeout: Self { .init(code: ZMQ_HEARTBEAT_TIMEOUT, name: "ZMQ_HEARTBEAT_TIMEOUT") }
    /// Time the peer should wait for traffic before considering this side dead.
    package static var heartbeatTTL: Self { .init(code: ZMQ_HEARTBEAT_TTL, name: "ZMQ_HEARTBEAT_TTL") }
    /// First reconnect delay after a lost connection.
    package static var reconnectInterval: Self { .init(code: ZMQ_RECONNECT_IVL, name: "ZMQ_RECONNECT_IVL") }
    /// Cap of the exponential reconnect back-off; 0 keeps the interval constant.
    package static var reconnectIntervalMax: Self { .init(code: ZMQ_RECONNECT_IVL_MAX, name: "ZMQ_RECONNECT_IVL_MAX") }
    /// Maximum time for a ZMTP (and CURVE) handshake.
    package static var handshakeInterval: Self { .init(code: ZMQ_HANDSHAKE_IVL, name: "ZMQ_HANDSHAKE_IVL") }
    /// Timeout of a blocking receive.
    package static var receiveTimeout: Self { .init(code: ZMQ_RCVTIMEO, name: "ZMQ_RCVTIMEO") }
    /// Timeout of a blocking send.
    package static var sendTimeout: Self { .init(code: ZMQ_SNDTIMEO, name: "ZMQ_SNDTIMEO") }
    /// How long a TCP connect may take before it is given up and retried (0: the kernel's own, minutes for a host
    /// that does not answer).
    package static var connectTimeout: Self { .init(code: ZMQ_CONNECT_TIMEOUT, name: "ZMQ_CONNECT_TIMEOUT") }
    /// How long sent TCP data may stay unacknowledged before the connection is dropped (`TCP_USER_TIMEOUT`);
    /// 0 leaves the kernel's retransmission limit (about 15 minutes on Linux).
    package static var tcpMaxRetransmitTimeout: Self { .init(code: ZMQ_TCP_MAXRT, name: "ZMQ_TCP_MAXRT") }
}

extension SocketOption where Value == Int32 {
    /// Outgoing queue limit in messages; 0 = unlimited.
    package static var sendHighWaterMark: Self { .init(code: ZMQ_SNDHWM, name: "ZMQ_SNDHWM") }
    /// Incoming queue limit in messages; 0 = unlimited.
    package static var receiveHighWaterMark: Self { .init(code: ZMQ_RCVHWM, name: "ZMQ_RCVHWM") }
    /// Readiness bits (`ZMQ_POLLIN` | `ZMQ_POLLOUT`), read-only.
    package static var events: Self { .init(code: ZMQ_EVENTS, name: "ZMQ_EVENTS") }
    /// Kernel receive buffer size for TCP.
    package static var receiveBuffer: Self { .init(code: ZMQ_RCVBUF, name: "ZMQ_RCVBUF") }
    /// Kernel send buffer size for TCP.
    package static var sendBuffer: Self { .init(code: ZMQ_SNDBUF, name: "ZMQ_SNDBUF") }
    /// TCP keepalive (`SO_KEEPALIVE`): 1 on, 0 off, -1 the system's default.
    package static var tcpKeepalive: Self { .init(code: ZMQ_TCP_KEEPALIVE, name: "ZMQ_TCP_KEEPALIVE") }
    /// Seconds a connection is idle before the first keepalive probe (`TCP_KEEPIDLE`); -1 the system's default.
    package static var tcpKeepaliveIdle: Self { .init(code: ZMQ_TCP_KEEPALIVE_IDLE, name: "ZMQ_TCP_KEEPALIVE_IDLE") }
    /// Seconds between keepalive probes (`TCP_KEEPINTVL`); -1 the system's default.
    package static var tcpKeepaliveInterval: Self {
        .init(code: ZMQ_TCP_KEEPALIVE_INTVL, name: "ZMQ_TCP_KEEPALIVE_INTVL")
    }
    /// Unanswered probes after which the connection is dropped (`TCP_KEEPCNT`); -1 the system's default.
    package static var tcpKeepaliveCount: Self { .init(code: ZMQ_TCP_KEEPALIVE_CNT, name: "ZMQ_TCP_KEEPALIVE_CNT") }
}

extension SocketOption where Value == Int64 {
    /// Largest inbound message part accepted; a peer that sends a larger one is disconnected. -1 = no limit.
    package static var maxMessageSize: Self { .init(code: ZMQ_MAXMSGSIZE, name: "ZMQ_MAXMSGSIZE") }
}

extension SocketOption where Value == Bool {
    /// ROUTER: fail with EHOSTUNREACH instead of silently dropping a message for an unknown peer.
    package static var routerMandatory: Self { .init(code: ZMQ_ROUTER_MANDATORY, name: "ZMQ_ROUTER_MANDATORY") }
    /// ROUTER: a new connection with an identity already in use takes it over.
    package static var routerHandover: Self { .init(code: ZMQ_ROUTER_HANDOVER, name: "ZMQ_ROUTER_HANDOVER") }
    /// Queue messages only to completed connections (so a DEALER does not queue to a broker that is down).
    package static var immediate: Self { .init(code: ZMQ_IMMEDIATE, name: "ZMQ_IMMEDIATE") }
    /// Act as CURVE server.
    package static var curveServer: Self { .init(code: ZMQ_CURVE_SERVER, name: "ZMQ_CURVE_SERVER") }
    /// Enable IPv6 on TCP endpoints.
    package static var ipv6: Self { .init(code: ZMQ_IPV6, name: "ZMQ_IPV6") }
    /// Whether more parts of the current message follow, read-only.
    package static var receiveMore: Self { .init(code: ZMQ_RCVMORE, name: "ZMQ_RCVMORE") }
}

extension SocketOption where Value == String {
    /// The last endpoint bound or connected, read-only.
    package static var lastEndpoint: Self { .init(code: ZMQ_LAST_ENDPOINT, name: "ZMQ_LAST_ENDPOINT") }
    /// ZAP domain; with CURVE, authentication requests carry it.
    package static var zapDomain: Self { .init(code: ZMQ_ZAP_DOMAIN, name: "ZMQ_ZAP_DOMAIN") }
    /// This side's CURVE public key (Z85, 40 characters).
    package static var curvePublicKey: Self { .init(code: ZMQ_CURVE_PUBLICKEY, name: "ZMQ_CURVE_PUBLICKEY") }
    /// This side's CURVE secret key (Z85).
    package static var curveSecretKey: Self { .init(code: ZMQ_CURVE_SECRETKEY, name: "ZMQ_CURVE_SECRETKEY") }
    /// The server's CURVE public key, set on clients (Z85).
    package static var curveServerKey: Self { .init(code: ZMQ_CURVE_SERVERKEY, name: "ZMQ_CURVE_SERVERKEY") }
}

extension SocketOption where Value == [UInt8] {
    /// The socket's routing id, as peers' ROUTER sockets see it (1...255 bytes, not starting with 0).
    package static var routingID: Self { .init(code: ZMQ_ROUTING_ID, name: "ZMQ_ROUTING_ID") }
}

extension Socket {
    private func setRaw(_ code: Int32, _ name: String, _ pointer: UnsafeRawPointer?, _ size: Int) throws(ZMQError) {
        let handle = try requireHandle("set \(name)")
        guard zmq_setsockopt(handle, code, pointer, size) == 0 else { throw .last("set \(name)") }
    }

    /// Sets an option libzmq takes as an integer of `T`'s width.
    private func setInt<T: FixedWidthInteger>(_ code: Int32, _ name: String, _ value: T) throws(ZMQError) {
        var value = value
        try setRaw(code, name, &value, MemoryLayout<T>.size)
    }

    private func getInt<T: FixedWidthInteger>(_ code: Int32, _ name: String, as: T.Type) throws(ZMQError) -> T {
        let handle = try requireHandle("get \(name)")
        var value: T = 0
        var size = MemoryLayout<T>.size
        guard zmq_getsockopt(handle, code, &value, &size) == 0 else { throw .last("get \(name)") }
        return value
    }

    package func set(_ option: SocketOption<Int32>, _ value: Int32) throws(ZMQError) {
        try setInt(option.code, option.name, value)
    }

    package func set(_ option: SocketOption<Int64>, _ value: Int64) throws(ZMQError) {
        try setInt(option.code, option.name, value)
    }

    package func set(_ option: SocketOption<Bool>, _ value: Bool) throws(ZMQError) {
        try setInt(option.code, option.name, Int32(value ? 1 : 0))
    }

    /// Sets a time option in whole milliseconds (libzmq's unit); durations are clamped to 0...Int32.max ms.
    package func set(_ option: SocketOption<Duration>, _ value: Duration) throws(ZMQError) {
        let milliseconds = value.components.seconds * 1000 + value.components.attoseconds / 1_000_000_000_000_000
        try setInt(option.code, option.name, Int32(clamping: max(0, milliseconds)))
    }

    package func set(_ option: SocketOption<String>, _ value: String) throws(ZMQError) {
        try set(SocketOption<[UInt8]>(code: option.code, name: option.name), Array(value.utf8))
    }

    package func set(_ option: SocketOption<[UInt8]>, _ value: [UInt8]) throws(ZMQError) {
        let handle = try requireHandle("set \(option.name)")
        let status = value.withUnsafeBytes { buffer in
            zmq_setsockopt(handle, option.code, buffer.baseAddress, buffer.count)
        }
        guard status == 0 else { throw .last("set \(option.name)") }
    }

    package func get(_ option: SocketOption<Int32>) throws(ZMQError) -> Int32 {
        try getInt(option.code, option.name, as: Int32.self)
    }

    package func get(_ option: SocketOption<Int64>) throws(ZMQError) -> Int64 {
        try getInt(option.code, option.name, as: Int64.self)
    }

    package func get(_ option: SocketOption<Bool>) throws(ZMQError) -> Bool {
        try getInt(option.code, option.name, as: Int32.self) != 0
    }

    package func get(_ option: SocketOption<Duration>) throws(ZMQError) -> Duration {
        .milliseconds(try getInt(option.code, option.name, as: Int32.self))
    }

    package func get(_ option: SocketOption<String>) throws(ZMQError) -> String {
        let handle = try requireHandle("get \(option.name)")
        var buffer = [CChar](repeating: 0, count: 1024)
        var size = buffer.count
        guard zmq_getsockopt(handle, option.code, &buffer, &size) == 0 else { throw .last("get \(option.name)") }
        let bytes = buffer.prefix(max(0, size)).prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    package func get(_ option: SocketOption<[UInt8]>) throws(ZMQError) -> [UInt8] {
        let handle = try requireHandle("get \(option.name)")
        var buffer = [UInt8](repeating: 0, count: 256)
        var size = buffer.count
        guard zmq_getsockopt(handle, option.code, &buffer, &size) == 0 else { throw .last("get \(option.name)") }
        return Array(buffer.prefix(size))
    }
}
