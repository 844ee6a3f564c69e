import Foundation

/// Loopback TCP endpoints for a broker that a test stops and starts again on the same address.
///
/// Why not a port the kernel picks (`tcp://127.0.0.1:0`): such a port lies in the kernel's ephemeral range, the
/// range it also takes the source port of every outgoing connection from. While the broker is down, its peers keep
/// reconnecting to its port; when one of those attempts happens to get that very port as its source port, TCP
/// connects the socket to itself (a "simultaneous open"), ZeroMQ greets itself and reports the peer connected, and
/// it never reaches the restarted broker. With dozens of tests opening connections at once, that was one full run
/// in three. A port below the ephemeral range is never a source port, so it cannot happen there.
package enum RestartablePort {
    /// `tcp://127.0.0.1:PORT` on a port below the ephemeral range that nothing listens on right now, chosen at
    /// random so that tests running together do not pick the same one.
    package static func endpoint() -> String { "tcp://127.0.0.1:\(port())" }

    /// A free port below the ephemeral range (`/proc/sys/net/ipv4/ip_local_port_range`), from 20000 up.
    package static func port() -> Int {
        let ephemeralStart = ephemeralRange?.lowerBound ?? 32768
        let candidates = 20000..<max(20001, ephemeralStart)
        for _ in 0..<200 {
            let port = Int.random(in: candidates)
            if isFree(port) { return port }
        }
        preconditionFailure("no free loopback port in \(candidates)")
    }

    /// The kernel's ephemeral port range, when it says.
    static var ephemeralRange: ClosedRange<Int>? {
        guard let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
        else { return nil }
        let bounds = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard bounds.count == 2, bounds[0] <= bounds[1] else { return nil }
        return bounds[0]...bounds[1]
    }

    /// Whether a listening socket can bind `port` on 127.0.0.1 now.
    static func isFree(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
