import Foundation
import TallyClient
import TallyProtocol
import TallyTesting
import TallyTracing
import Testing
import Tracing
import ZeroMQ

/// W3C trace context from a backend's span through the client, broker and worker, on real processes with JSON
/// logs and span export to a real OTLP/HTTP receiver: the same trace id everywhere, every span a child of the
/// client's, and a request without a trace untouched by any of it.
@Suite(.realProcesses) struct TracingTests {
    static let explicitTraceID = "0af7651916cd43dd8448eb211c80319c"
    static let explicit = TraceContext(
        traceparent: "00-\(explicitTraceID)-b7ad6b7169203331-01", tracestate: "vendor=opaque")

    @Test func aTraceGoesFromTheBackendsSpanThroughBrokerAndWorker() async throws {
        let receiver = try await OTLPReceiver.start()
        let export = ["--log-format", "json", "--otlp-endpoint", receiver.endpoint]
        let backendSpans = InMemorySpanExporter()
        let tracer = TallyTracer(exporter: backendSpans)

        let cluster = try await withCluster(
            workers: 1, brokerArguments: export + ["--queue-timeout", "200ms"], workerArguments: export,
            logLevel: "trace"
        ) { cluster in
            let client = try makeClient([cluster.endpoint], retries: 0)
            #expect(await waitForServices(client))
            // A backend handling a request of its own: its span is current, so the call is a child of it.
            try await withTracer(tracer) {
                try await tracer.withSpan("GET /steps", context: .topLevel, ofKind: .server) { _ in
                    _ = try await client.ping()
                }
            }
            // A trace the caller gives, and a call with none.
            _ = try await client.call(SystemPing.self, SystemPing.Params(), trace: Self.explicit)
            _ = try await client.ping()
            // A request the broker answers itself (no worker serves the name) names its trace too.
            let endpoint = cluster.endpoint
            let unserved = try await onOwnThread {
                let raw = try RawMDPClient(context: try Context(), endpoint: endpoint)
                try raw.request(
                    service: "tally.nowhere",
                    body:
                        #"{"version":1,"id":"lost","method":"system.ping","trace":{"traceparent":"\#(Self.explicit.traceparent)"}}"#
                )
                return try raw.receive()
            }
            #expect(unserved != nil)
            await client.stop()
            return cluster
        }
        // The processes have exited: their exporters sent what they held on the way out.
        await receiver.stop()

        let backend = try #require(backendSpans.finishedSpans.first { $0.operationName == "GET /steps" })
        let call = try #require(backendSpans.finishedSpans.first { $0.kind == .client })
        let traceID = backend.context.traceID
        #expect(call.operationName == "tally.history/system.ping")
        #expect(call.parentSpanID == backend.context.spanID)
        #expect(call.context.traceID == traceID)
        #expect(call.attributes.get("rpc.method") == .string("system.ping"))

        let workerLines = try JSONLogTests.parseLines(cluster.workers[0].errorOutput, from: "worker")
        let brokerLines = try JSONLogTests.parseLines(cluster.broker.errorOutput, from: "broker")
        let answered = workerLines.filter { $0["message"] as? String == "request answered" }
        #expect(answered.count == 3, "\(answered)")
        #expect(
            answered.contains {
                $0["trace_id"] as? String == traceID && $0["span_id"] as? String == call.context.spanID
            },
            "the worker's line names the trace and the client's span: \(answered)")
        #expect(
            answered.contains {
                $0["trace_id"] as? String == Self.explicitTraceID && $0["span_id"] as? String == "b7ad6b7169203331"
            })
        #expect(answered.filter { $0["trace_id"] == nil && $0["span_id"] == nil }.count == 1, "no trace, no ids")

        let delivered = brokerLines.filter { $0["message"] as? String == "reply delivered" }
        #expect(delivered.count == 3)
        #expect(
            delivered.contains {
                $0["trace_id"] as? String == traceID && $0["span_id"] as? String == call.context.spanID
            })
        #expect(delivered.contains { $0["trace_id"] as? String == Self.explicitTraceID })
        #expect(delivered.filter { $0["trace_id"] == nil }.count == 1)
        #expect(
            brokerLines.contains {
                $0["message"] as? String == "request answered by the broker"
                    && $0["trace_id"] as? String == Self.explicitTraceID
            },
            "the broker's own answer names the trace")

        // Spans: the broker's queue and the worker's dispatch and compute, children of the client's span.
        let spans = receiver.spans
        let traced = spans.filter { $0["traceId"] as? String == traceID }
        #expect(
            Set(traced.compactMap { $0["name"] as? String }) == [
                "tally.broker.queue", "tally.worker.dispatch", "tally.worker.compute",
            ], "\(spans)")
        #expect(traced.allSatisfy { $0["parentSpanId"] as? String == call.context.spanID })
        #expect(
            traced.first { $0["name"] as? String == "tally.broker.queue" }?["service.name"] as? String == "tally-broker"
        )
        #expect(
            traced.first { $0["name"] as? String == "tally.worker.compute" }?["service.name"] as? String
                == "tally-worker")
        let explicitSpans = spans.filter { $0["traceId"] as? String == Self.explicitTraceID }
        #expect(explicitSpans.count == 3)
        #expect(explicitSpans.allSatisfy { $0["traceState"] as? String == "vendor=opaque" })
        #expect(spans.count == 6, "nothing for the untraced call: \(spans.map { $0["name"] ?? "" })")
        for span in traced {
            let start = UInt64(span["startTimeUnixNano"] as? String ?? "") ?? 0
            let end = UInt64(span["endTimeUnixNano"] as? String ?? "") ?? 0
            #expect(start >= backend.startNanosecondsSinceEpoch && end <= backend.endNanosecondsSinceEpoch + 50_000_000)
            #expect(start <= end)
        }
    }

    @Test func withoutATracerOrExportNothingIsAddedAndNothingBreaks() async throws {
        try await withCluster(workers: 1, workerArguments: ["--log-format", "json"], logLevel: "debug") { cluster in
            let client = try makeClient([cluster.endpoint])
            #expect(await waitForServices(client))
            // No tracer bootstrapped: the no-op default starts no span and the request carries no trace.
            #expect(try await client.ping().worker.isEmpty == false)
            await client.stop()
            await cluster.stop()
            let answered = try JSONLogTests.parseLines(cluster.workers[0].errorOutput, from: "worker")
                .filter { $0["message"] as? String == "request answered" }
            #expect(answered.count == 1)
            #expect(answered.allSatisfy { $0["trace_id"] == nil && $0["span_id"] == nil })
        }
    }
}
