import CZeroMQ

/// A connection event of a monitored socket (`zmq_socket_monitor`): which endpoint it concerns, what happened, and
/// the event's value (a file descriptor, a retry interval in milliseconds, an error number, depending on the kind).
package struct SocketEvent: Sendable, Hashable {
    /// The kinds of event, as the monitor reports them; also the mask of those to report.
    package struct Kind: OptionSet, Sendable, Hashable {
        package let rawValue: UInt16
        package init(rawValue: UInt16) { self.rawValue = rawValue }

        package static let connected = Kind(rawValue: UInt16(ZMQ_EVENT_CONNECTED))
        /// A listening socket accepted a connection; the value is its file descriptor.
        package static let accepted = Kind(rawValue: UInt16(ZMQ_EVENT_ACCEPTED))
        /// A connect could not complete at once and will be retried asynchronously.
        package static let connectDelayed = Kind(rawValue: UInt16(ZMQ_EVENT_CONNECT_DELAYED))
        /// A connect failed and is retried after the value's milliseconds (nothing listens there, say).
        package static let connectRetried = Kind(rawValue: UInt16(ZMQ_EVENT_CONNECT_RETRIED))
        package static let disconnected = Kind(rawValue: UInt16(ZMQ_EVENT_DISCONNECTED))
        package static let handshakeSucceeded = Kind(rawValue: UInt16(ZMQ_EVENT_HANDSHAKE_SUCCEEDED))
        /// The ZMTP handshake failed: a CURVE key mismatch, an authentication refusal, a peer that is not ZeroMQ.
        package static let handshakeFailed = Kind(
            rawValue: UInt16(
                ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL | ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL
                    | ZMQ_EVENT_HANDSHAKE_FAILED_AUTH))
        package static let monitorStopped = Kind(rawValue: UInt16(ZMQ_EVENT_MONITOR_STOPPED))

        /// What a client needs to say how its brokers stand.
        package static let connection: Kind = [
            .connected, .connectDelayed, .connectRetried, .disconnected, .handshakeSucceeded, .handshakeFailed,
        ]
    }

    package let kind: Kind
    package let value: UInt32
    /// The endpoint as it was given to `connect` or `bind`.
    package let endpoint: String

    /// Reads a monitor message: six bytes (event number, value, little-endian as libzmq writes them on this
    /// platform), then the endpoint. `nil` for anything else.
    package init?(frames: [Frame]) {
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
    package func monitor(_ address: String, events: SocketEvent.Kind) throws(ZMQError) {
        let handle = try requireHandle("monitor")
        guard zmq_socket_monitor(handle, address, Int32(events.rawValue)) == 0 else {
            throw .last("monitor \(address)")
        }
        isMonitored = true
    }

    /// Stops publishing events, at once: none is raised after this returns (`zmq_socket_monitor` with no address).
    package func stopMonitoring() {
        guard let handle, isMonitored else { return }
        zmq_socket_monitor(handle, nil, 0)
        isMonitored = false
    }
}
