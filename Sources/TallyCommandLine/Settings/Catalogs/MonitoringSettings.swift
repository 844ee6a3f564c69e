/// `--http`, shared by the broker and the worker.
package enum MonitoringSettings {
    /// The HTTP address setting, its examples on `port`. Its shape is checked by ``MonitoringOptions`` once resolved.
    /// - Parameter console: whether the process serves the operator's console there too (the broker).
    package static func http(example port: Int, console: Bool = false) -> Setting<String> {
        Setting(
            "http",
            "HTTP address for /metrics, /livez and /readyz\(console ? " and the console (/)" : ""): HOST:PORT with an "
                + "IPv4 address, a host name or [IPv6], e.g. 0.0.0.0:\(port), localhost:\(port), [::]:\(port).",
            default: "", shownDefault: "off")
    }
}
