/// Settings that several programs take under one name: wherever one is taken it has the same kind of default and
/// the same check, and each program says in its own words what it means there.
enum SharedSettings {
    /// `--heartbeat-interval` of an MDP peer (the broker heartbeats its workers, a worker its brokers).
    static func heartbeatInterval(_ summary: String, default interval: Duration) -> Setting<DurationArgument> {
        Setting(
            "heartbeat-interval", summary, default: DurationArgument(interval),
            check: .atLeast(DurationArgument(.milliseconds(10))))
    }

    /// `--heartbeat-liveness`: heartbeats missed before the peer is taken for gone.
    static func heartbeatLiveness(_ summary: String, default liveness: Int) -> Setting<Int> {
        Setting("heartbeat-liveness", summary, default: liveness, check: .atLeast(1))
    }

    /// `--max-body-bytes`: the largest request body the program takes.
    static func maxBodyBytes(_ summary: String, default bytes: Int) -> Setting<Int> {
        Setting("max-body-bytes", summary, default: bytes, check: .atLeast(64))
    }

    /// `--shutdown-grace`: how long a graceful shutdown lets work in progress finish.
    static func shutdownGrace(_ summary: String) -> Setting<DurationArgument> {
        Setting("shutdown-grace", summary, default: DurationArgument(.seconds(10)))
    }

    /// `--curve-secret-key`: the program's own CURVE secret-key file; none means plaintext.
    static func curveSecretKey(_ summary: String) -> Setting<String> {
        Setting("curve-secret-key", summary, default: "", shownDefault: "plaintext")
    }
}
