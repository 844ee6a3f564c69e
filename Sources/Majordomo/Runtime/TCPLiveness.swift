import ZeroMQ

/// How a broker or worker lets go of a TCP connection whose peer host went silent without a reset (power, link,
/// firewall): MDP's heartbeats tell such a worker or broker from a live one, but its connection would stay open
/// until the kernel gives up on it, ~15 minutes of retransmissions when data is outstanding, and never for an idle
/// one: a backend that autoscaled away, or was killed without a FIN, would leave a connection behind each time.
///
/// Two kernel mechanisms, answered by the peer's kernel alone and so by every peer that is alive, whatever its
/// ZeroMQ stack (a ZMTP 3.0 peer never answers a ZMTP PING, and a heartbeat timeout would cut it):
/// - keepalive probes on an idle connection (`SO_KEEPALIVE`, after `idle` seconds, every `probeInterval`);
/// - `TCP_USER_TIMEOUT` (`ZMQ_TCP_MAXRT`): a connection whose sent data (or probes) the peer has acknowledged
///   none of for `silenceLimit` is closed.
///
/// A live peer that stops reading for `silenceLimit` while data waits for it (its window stays shut) is closed as
/// well: it spoils only its own requests, and a stalled reader is what a bounded queue is for.
struct TCPLiveness: Sendable, Hashable {
    /// How long a peer host may acknowledge nothing before its connection is closed.
    var silenceLimit: Duration
    /// Seconds of quiet before the first keepalive probe.
    var idle: Int32
    /// Seconds between keepalive probes.
    var probeInterval: Int32 = 1

    /// Patience of `silenceLimit`, probing an idle connection from `probeAfter` (whole seconds, at least one).
    init(silenceLimit: Duration, probeAfter: Duration) {
        self.silenceLimit = silenceLimit
        idle = Int32(clamping: min(Self.longestIdle, max(1, probeAfter.components.seconds)))
    }

    /// For a broker or worker that heartbeats every `interval` and gives a silent peer `liveness` of them: a host
    /// that acknowledged nothing for all but one of them is gone, so its connection is closed by the time its
    /// worker or broker is given up on, and a peer that is only idle is probed every heartbeat or so.
    init(heartbeatInterval interval: Duration, liveness: Int) {
        self.init(silenceLimit: interval * max(1, liveness - 1), probeAfter: interval)
    }

    /// Sets the options on a socket, before it binds or connects (they apply to every connection it makes).
    func apply(to socket: Socket) throws(ZMQError) {
        try socket.set(.tcpKeepalive, 1)
        try socket.set(.tcpKeepaliveIdle, idle)
        try socket.set(.tcpKeepaliveInterval, probeInterval)
        // Unused while the user timeout is set (it decides when probing gives up), but a sane count if not.
        let probes = Int32(clamping: silenceLimit.components.seconds) / probeInterval
        try socket.set(.tcpKeepaliveCount, min(Self.mostProbes, max(1, probes)))
        try socket.set(.tcpMaxRetransmitTimeout, silenceLimit)
    }

    /// Linux's limits (`TCP_KEEPIDLE`, `TCP_KEEPCNT`): libzmq sets the options on each new connection, and a value
    /// past them fails that connection, every time it is tried.
    static let longestIdle: Int64 = 32767
    static let mostProbes: Int32 = 127
}
