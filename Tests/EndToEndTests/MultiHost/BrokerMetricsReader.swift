import Foundation
import TallyTesting

/// Reads a broker's Prometheus `/metrics` from inside the virtual network (the test process itself is outside
/// it and cannot reach the namespaces' addresses), with a short Python fetch run on the client host.
struct BrokerMetricsReader {
    let network: VirtualNetwork
    let url: String
    var fromHost = "client"

    static let fetch = """
        import sys, urllib.request
        sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=3).read().decode())
        """

    /// The sample of `name` labelled with `service`, summed over its other labels; 0 when absent or unreadable.
    func value(_ name: String, service: String) async -> Int {
        await samples(name).filter { $0.labels.contains("service=\"\(service)\"") }.reduce(0) { $0 + $1.value }
    }

    /// Every sample of `name`, summed over its labels.
    func total(_ name: String) async -> Int {
        await samples(name).reduce(0) { $0 + $1.value }
    }

    private func samples(_ name: String) async -> [(labels: String, value: Int)] {
        await scrape().compactMap { line in
            guard line.hasPrefix(name + "{") || line.hasPrefix(name + " ") else { return nil }
            let parts = line.split(separator: " ")
            guard parts.count >= 2, let value = Double(parts[parts.count - 1]) else { return nil }
            return (String(parts[0]), Int(value))
        }
    }

    /// The lines of one scrape; empty when the broker did not answer.
    private func scrape() async -> [String] {
        let python = URL(fileURLWithPath: "/usr/bin/env")
        let fetch = ["python3", "-c", Self.fetch, url]
        let result = try? await network.run(on: fromHost, python, fetch, timeout: .seconds(5))
        guard let result, result.succeeded else { return [] }
        return result.output.split(separator: "\n").map(String.init)
    }
}
