import ArgumentParser
import Logging
import TallyTracing

/// `--otlp-endpoint`: when set, the process records its spans for traced requests with `TallyTracer` and sends
/// them by OTLP/HTTP; when empty (the default), it records none.
package struct TracingOptions: Sendable {
    package let tracer: TallyTracer
    package let exporter: OTLPHTTPExporter

    /// - Returns: `nil` when `endpoint` is empty (export off).
    /// - Throws: `ValidationError` naming the option when `endpoint` is not an `http://` URL.
    package static func start(
        endpoint: String, serviceName: String, version: String, logger: Logger
    ) throws
        -> TracingOptions?
    {
        guard !endpoint.isEmpty else { return nil }
        let parsed: OTLPHTTPExporter.Endpoint
        do {
            parsed = try OTLPHTTPExporter.Endpoint(parsing: endpoint)
        } catch {
            throw ValidationError(
                "--\(TracingSettings.otlpEndpoint.name) (or \(TracingSettings.otlpEndpoint.environmentVariable)) \(error)"
            )
        }
        let exporter = OTLPHTTPExporter(endpoint: parsed, serviceName: serviceName, version: version, logger: logger)
        logger.info("exporting spans by OTLP/HTTP", metadata: ["otlp.endpoint": "\(parsed)"])
        return TracingOptions(tracer: TallyTracer(exporter: exporter), exporter: exporter)
    }

    /// Runs `body`, then sends the spans still buffered, whatever `body` did.
    package func flushing(after body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            await exporter.shutdown()
            throw error
        }
        await exporter.shutdown()
    }
}
