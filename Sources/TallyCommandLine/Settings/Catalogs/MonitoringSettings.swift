/// `--http`, shared by the broker and the worker.
public enum MonitoringSettings {
    /// The HTTP address setting, its examples on `port`. Its shape is checked by ``MonitoringOptions`` once resolved.
    public static func http(example port: Int) -> Setting<String> {
        Setting(
            "http",
            "HTTP address for /metrics, /livez and /readyz: HOST:PORT with an IPv4 address, a host name or [IPv6], "
                + "e.g. 0.0.0.0:\(port), localhost:\(port), [::]:\(port).",
            default: "", shownDefault: "off")
    }
}
