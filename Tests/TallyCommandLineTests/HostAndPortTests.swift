import TallyCommandLine
import TallyMonitoring
import Testing

@Suite struct HostAndPortTests {
    @Test(arguments: [
        ("0.0.0.0:9100", "0.0.0.0", 9100), ("127.0.0.1:0", "127.0.0.1", 0), ("localhost:9100", "localhost", 9100),
        ("metrics-1.internal.example:65535", "metrics-1.internal.example", 65535),
        ("node.example.:80", "node.example.", 80), ("[::1]:9100", "::1", 9100), ("[::]:9100", "::", 9100),
        ("[fe80::1%eth0]:9100", "fe80::1%eth0", 9100), ("[2001:db8::7]:1", "2001:db8::7", 1),
    ])
    func parses(text: String, host: String, port: Int) throws {
        let address = try HostAndPort(parsing: text)
        #expect(address.host == host && Int(address.port) == port)
        #expect(address.description == text)
    }

    @Test(arguments: [
        "", "9100", "localhost", "localhost:", ":9100", "::1:9100", "[::1]", "[::1]9100", "[::1:9100", "[]:9100",
        "[127.0.0.1]:9100", "256.0.0.1:9100", "1.2.3:9100", "host_name:9100", "-host:9100", "host-:9100",
        "a..b:9100", "localhost:65536", "localhost:-1", "localhost:+80", "localhost:80x", "ünïcode:9100",
        "[fe80::1%]:9100",
    ])
    func refuses(text: String) {
        #expect(throws: HostAndPort.SyntaxError.self, "\(text)") { try HostAndPort(parsing: text) }
    }

    @Test func theOptionsMessageNamesTheOptionAndTheVariable() throws {
        #expect(throws: (any Error).self) { try MonitoringOptions<BrokerSettings>.validated("::1:9100") }
        do {
            _ = try MonitoringOptions<BrokerSettings>.validated("::1:9100")
        } catch {
            #expect("\(error)".contains("--http") && "\(error)".contains("TALLY_HTTP") && "\(error)".contains("[::1]"))
        }
        #expect(try MonitoringOptions<BrokerSettings>.validated("") == nil, "empty: off")
    }
}
