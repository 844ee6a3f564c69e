import CZeroMQ

/// A connection event of a monitored socket (`zmq_socket_monitor`): which endpoint it concerns, what happened, and
/// the event's value (a file descriptor, a retry interval in milliseconds, an error number, depending on the kind).
public struct SocketEvent: Sendable, Hashable {
    /// The kinds of event, as the monitor reports them; also the mask of those to report.
    public struct Kind: OptionSet, Sendable, Hashable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        public static let connected = Kind(rawValue: UInt16(ZMQ_EVENT_CONNECTED))
        /// A listening socket accepted a connection; the value is its file descriptor.
        public static let accepted = Kind(rawValue: UInt16(ZMQ_EVENT_ACCEPTED))
        /// A connect could not complete at once and will be retried asynchronously.
        public static let connectDelayed = Kind(rawValue: UInt16(ZMQ_EVENT_CONNECT_DELAYED))
        /// A connect failed and is retried after the value's milliseconds (nothing listens there, say).
        public static let connectRetried = Kind(rawValue: UInt16(ZMQ_EVENT_CONNECT_RETRIED))
        public static let disconnected = Kind(rawValue: UInt16(ZMQ_EVENT_DISCONNECTED))
        public static let handshakeSucceeded = Kind(rawValue: UInt16(ZMQ_EVENT_HANDSHAKE_SUCCEEDED))
        /// The ZMTP handshake failed: a CURVE key mismatch, an authentication refusal, a peer that is not ZeroMQ.
        public static let handshakeFailed = Kind(
            rawValue: UInt16(
                ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL | ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL
                    | ZMQ_EVENT_HANDSHAKE_FAILED_AUTH))
        public static let monitorStopped = Kind(rawValue: UInt16(ZMQ_EVENT_MONITOR_STOPPED))

        /// What a client needs to say how its brokers stand.
        public static let connection: Kind = [
            .connected, .connectDelayed, .connectRetried, .disconnected, .handshakeSucceeded, .handshakeFailed,
        ]
    }

    public let kind: Kind
    public let value: UInt32
    /// The endpoint as it was given to `connect` or `bind`.
    public let endpoint: String

    public init(kind: Kind, value: UInt32, endpoint: String) {
        self.kind = kind
        self.value = value
        self.endpoint = endpoint
    }

    /// Reads a monitor message: six bytes (event number, value, little-endian as libzmq writes them on this
    /// platform), then the endpoint. `nil` for anything else.
    public init?(frames: [Frame]) {
        guard frames.count == 2, frames[0].count == 6, let endpoint = frames[1].text else { return nil }
        let bytes = frames[0].bytes
        kind = Kind(rawValue: UInt16(bytes[0]) | UInt16(bytes[1]) << 8)
        value = (2..<6).reduce(0) { $0 | UInt32(bytes[$1]) << (8 * UInt32($1 - 2)) }
        self.endpoint = endpoint
    }
}

extension Socket {
    /// Publishes this socket's connection events on a PAIR socket bound at `address` (`inproc://…`), which the
    /// caller connects to read them (`SocketEvent(frames:)`).
    ///
    /// libzmq blocks the thread that raises an event (often one of its I/O threads) while the reader's pipe is
    /// full or the reader is gone, so: read every turn, give the reader an unlimited receive queue when bursts
    /// can outrun it, and close the reader only after this socket (`close()` stops the events first) or after
    /// `stopMonitoring()`.
    /// - Throws: `ZMQError`, e.g. when the address is taken.
    public func monitor(_ address: String, events: SocketEvent.Kind) throws(ZMQError) {
        let handle = try requireHandle("monitor")
        guard zmq_socket_monitor(handle, address, Int32(events.rawValue)) == 0 else {
            throw .last("monitor \(address)")
        }
        isMonitored = true
    }

    /// Stops publishing events, at once: none is raised after this returns (`zmq_socket_monitor` with no address).
    public func stopMonitoring() {
        guard let handle, isMonitored else { return }
        zmq_socket_monitor(handle, nil, 0)
        isMonitored = false
    }
}
