import Foundation
import TallyTesting

/// Looks at running test processes from outside: memory from `/proc`, metrics over HTTP.
enum ProcessProbes {
    /// Resident set size of `pid` in KiB (`VmRSS` in `/proc/<pid>/status`), or `nil` if it cannot be read.
    static func residentKiB(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    /// A loopback `HOST:PORT` that was free a moment ago, for `--http` or for an endpoint nothing listens on. Not
    /// reserved: a race with another process is possible but rare. Below the kernel's ephemeral range
    /// (`RestartablePort`): a port the kernel picked could be handed out again as the source port of one of the
    /// hundreds of connections the suite opens before the process under test binds it, and a client retrying a
    /// port where nothing listens could connect to itself.
    static func freeLoopbackAddress() -> String { "127.0.0.1:\(RestartablePort.port())" }

    /// The Prometheus text served at `http://address/metrics`, or `nil` when unreachable.
    static func metrics(at address: String) async -> String? {
        await PlainHTTPGet.get(address, path: "/metrics")?.body
    }

    /// The value of the sample whose name and labels are exactly `series` (`name{label="value",…}`), 0 if absent.
    static func sample(_ series: String, in metrics: String) -> Double {
        for line in metrics.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1)) ?? 0
        }
        return 0
    }

    /// Every sample of the metric `name`, summed over its labels; 0 if absent.
    static func total(_ name: String, in metrics: String) -> Double {
        PrometheusExposition(metrics).samples.filter { $0.name == name }.reduce(0) { $0 + $1.value }
    }

    /// How many samples (lines that are not comments) a Prometheus exposition holds.
    static func seriesCount(_ metrics: String) -> Int {
        metrics.split(separator: "\n").count { !$0.hasPrefix("#") && !$0.isEmpty }
    }
}
