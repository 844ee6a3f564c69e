import Foundation

/// Looks at running test processes from outside: memory from `/proc`, metrics over HTTP.
enum ProcessProbes {
    /// Resident set size of `pid` in KiB (`VmRSS` in `/proc/<pid>/status`), or `nil` if it cannot be read.
    static func residentKiB(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    /// A loopback `HOST:PORT` that was free a moment ago (the kernel picks it), for `--http`. Not reserved: a
    /// race with another process is possible but rare, unlike a fixed or random port on a shared machine.
    static func freeLoopbackAddress() -> String {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let port: UInt16 = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                guard bind(descriptor, generic, length) == 0, getsockname(descriptor, generic, &length) == 0 else {
                    return 0
                }
                return UInt16(bigEndian: pointer.pointee.sin_port)
            }
        }
        return "127.0.0.1:\(port)"
    }

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
