import Foundation
import Logging
import TallyProtocol
import TallyTesting
import TallyTracing
import Testing
import Tracing

#if canImport(Glibc)
import Glibc
#endif

/// The OTLP/HTTP JSON exporter against a real HTTP receiver on loopback: spans arrive as OTLP/JSON (hex ids,
/// numeric kinds, nanoseconds as decimal strings), in batches, and a receiver that is down or refuses costs
/// spans, never the caller.
@Suite(.serialized) struct OTLPHTTPExporterTests {
    /// The refusals below are on purpose: their warnings would only be noise in the test output.
    static let quiet: Logger = {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return logger
    }()

    @Test(arguments: [
        ("http://localhost:4318", "localhost", 4318, "/v1/traces"),
        ("http://127.0.0.1", "127.0.0.1", 4318, "/v1/traces"),
        ("http://collector:9999/", "collector", 9999, "/v1/traces"),
        ("http://[::1]:4318/otlp", "::1", 4318, "/otlp/v1/traces"),
        ("http://c:1/v1/traces", "c", 1, "/v1/traces"),
    ])
    func readsEndpoints(text: String, host: String, port: Int, path: String) throws {
        let endpoint = try OTLPHTTPExporter.Endpoint(parsing: text)
        #expect(endpoint.host == host)
        #expect(endpoint.port == port)
        #expect(endpoint.path == path)
    }

    @Test(arguments: ["https://collector:4318", "collector:4318", "", "http://", "grpc://x:4317"])
    func refusesOtherEndpoints(text: String) {
        #expect(throws: OTLPHTTPExporter.EndpointError.self) { try OTLPHTTPExporter.Endpoint(parsing: text) }
    }

    @Test func spansArriveAsOTLPJSON() async throws {
        let receiver = try await OTLPReceiver.start()
        let exporter = OTLPHTTPExporter(
            endpoint: try .init(parsing: receiver.endpoint), serviceName: "tally-test", version: "1.2.3",
            logger: Self.quiet)
        let tracer = TallyTracer(exporter: exporter)
        let caller = TraceContext(traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
        let span = tracer.startSpan(
            "tally.worker.compute", context: tracer.context(continuing: caller), ofKind: .server,
            at: DefaultTracerClock.Timestamp(nanosecondsSinceEpoch: 1_700_000_000_000_000_000))
        span.attributes["rpc.method"] = "system.ping"
        span.attributes["count"] = 3
        span.setStatus(SpanStatus(code: .error, message: "internal"))
        span.end(at: DefaultTracerClock.Timestamp(nanosecondsSinceEpoch: 1_700_000_000_000_500_000))
        await exporter.shutdown()
        await receiver.stop()

        let spans = receiver.spans
        try #require(spans.count == 1, "\(spans)")
        let sent = spans[0]
        #expect(sent["service.name"] as? String == "tally-test")
        #expect(sent["traceId"] as? String == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(sent["parentSpanId"] as? String == "00f067aa0ba902b7")
        #expect((sent["spanId"] as? String)?.count == 16)
        #expect(sent["name"] as? String == "tally.worker.compute")
        #expect(sent["kind"] as? Int == 2)
        #expect(sent["startTimeUnixNano"] as? String == "1700000000000000000")
        #expect(sent["endTimeUnixNano"] as? String == "1700000000000500000")
        #expect((sent["status"] as? [String: Any])?["code"] as? Int == 2)
        let attributes = sent["attributes"] as? [[String: Any]] ?? []
        #expect(
            attributes.contains {
                $0["key"] as? String == "count" && ($0["value"] as? [String: Any])?["intValue"] as? String == "3"
            })
        #expect(
            attributes.contains {
                $0["key"] as? String == "rpc.method"
                    && ($0["value"] as? [String: Any])?["stringValue"] as? String == "system.ping"
            })
    }

    @Test func manySpansGoInBatches() async throws {
        let receiver = try await OTLPReceiver.start()
        let exporter = OTLPHTTPExporter(
            endpoint: try .init(parsing: receiver.endpoint), serviceName: "tally-test", version: "0",
            logger: Self.quiet)
        let tracer = TallyTracer(exporter: exporter)
        for index in 0..<1200 { tracer.startSpan("span-\(index)", context: .topLevel).end() }
        await exporter.shutdown()
        await receiver.stop()
        #expect(receiver.spans.count == 1200)
        #expect(receiver.requestCount >= 3, "at most 512 spans a request")
    }

    @Test func aReceiverThatIsDownOrRefusesOrNeverAnswersCostsOnlySpans() async throws {
        let refusing = try await OTLPReceiver.start(refusing: true)
        let silent = try SilentListener()
        defer { silent.close() }
        for endpoint in [refusing.endpoint, "http://127.0.0.1:1", "http://\(silent.address)"] {
            let exporter = OTLPHTTPExporter(
                endpoint: try .init(parsing: endpoint), serviceName: "tally-test", version: "0",
                logger: Self.quiet)
            let clock = ContinuousClock()
            let start = clock.now
            TallyTracer(exporter: exporter).startSpan("lost", context: .topLevel).end()
            // A span that waited for the silent receiver would take the exporter's 2 s send timeout; ending one
            // takes microseconds, and 1 s is slack for a busy machine.
            let elapsed = clock.now - start
            #expect(elapsed < .seconds(1), "export never waits for the network (\(endpoint)): \(elapsed)")
            await exporter.shutdown()
        }
        #expect(refusing.requestCount == 1)
        #expect(refusing.spans.isEmpty)
        await refusing.stop()
    }
}

/// A TCP port on loopback that is listened on and never accepted: connecting and sending succeed (the kernel
/// completes the handshake and buffers the bytes), and no answer ever comes, as from a receiver that hangs.
struct SilentListener {
    let descriptor: Int32
    let address: String

    init() throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let descriptor = self.descriptor
        let port: UInt16? = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                guard bind(descriptor, generic, length) == 0, listen(descriptor, 8) == 0,
                    getsockname(descriptor, generic, &length) == 0
                else { return nil }
                return UInt16(bigEndian: pointer.pointee.sin_port)
            }
        }
        guard let port else {
            Glibc.close(descriptor)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        self.address = "127.0.0.1:\(port)"
    }

    func close() { Glibc.close(descriptor) }
}
