/// `--otlp-endpoint`, shared by the broker and the worker.
package enum TracingSettings {
    package static let otlpEndpoint = Setting(
        "otlp-endpoint",
        "OTLP/HTTP receiver for spans (an OpenTelemetry collector), e.g. http://localhost:4318: spans of traced "
            + "requests are POSTed as JSON to /v1/traces there.",
        default: "", shownDefault: "off")
}
