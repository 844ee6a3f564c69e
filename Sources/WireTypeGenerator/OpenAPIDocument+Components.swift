import Foundation
import TallyJSONCoding

/// The parts of the document that are the gateway's own: its headers, the error body, the API key.
extension OpenAPIDocument {
    /// The request headers every call takes. The trace headers' schemas are the request envelope's `trace`
    /// members', which they become.
    func parameters() throws(GeneratorError) -> JSONValue {
        let trace = index.documents["request.schema.json"]?["properties"]?["trace"]?["properties"]
        guard let traceparent = trace?["traceparent"], let tracestate = trace?["tracestate"] else {
            throw GeneratorError("request.schema.json: no properties.trace.properties.traceparent and tracestate")
        }
        func header(_ name: String, _ schema: JSONValue, _ description: String) -> JSONValue {
            JSON.object([
                ("name", JSON.text(name)), ("in", JSON.text("header")), ("required", .bool(false)),
                ("description", JSON.text(description)), ("schema", schema),
            ])
        }
        return JSON.object([
            (
                "traceparent",
                header(
                    "traceparent", traceparent,
                    "W3C Trace Context: sent on as the request's `trace`, so that broker and worker log lines and "
                        + "spans continue the caller's trace. One that is not valid is `invalid_request`.")
            ),
            (
                "tracestate",
                header("tracestate", tracestate, "W3C Trace Context, with `traceparent` (ignored without it).")
            ),
            (
                "Request-Timeout",
                header(
                    "Request-Timeout",
                    JSON.object([
                        ("type", JSON.text("string")), ("minLength", .number(1)),
                        (
                            "pattern",
                            JSON.text(
                                #"^([0-9]+(\.[0-9]+)?|([0-9]+(\.[0-9]+)?h)?([0-9]+(\.[0-9]+)?m)?([0-9]+(\.[0-9]+)?s)?([0-9]+(\.[0-9]+)?ms)?)$"#
                            )
                        ),
                    ]),
                    "How long the call may take, retries included: `250ms`, `2s`, `1m30s`, or a number of "
                        + "seconds. Sent on as the request's `deadline`, so no worker computes it after. Without "
                        + "it the gateway's default timeout counts; past its maximum, the maximum does.")
            ),
            (
                Self.serviceHeader,
                header(
                    Self.serviceHeader,
                    JSON.object([("type", JSON.text("string")), ("enum", JSON.texts(domainServices))]),
                    "The service a `system.*` method is asked on (each answers for itself: `system.describe` "
                        + "lists its own methods); tally.history without it. For another method it may only name "
                        + "the method's own service.")
            ),
        ])
    }

    var headers: JSONValue {
        JSON.object([
            (
                Self.requestIDHeader,
                JSON.object([
                    (
                        "description",
                        JSON.text(
                            "The v1 id the request carried to the brokers and workers, as their log lines name it.")
                    ),
                    ("schema", JSON.object([("type", JSON.text("string"))])),
                ])
            ),
            (
                "Retry-After",
                JSON.object([
                    ("description", JSON.text("Seconds to wait before trying again: retry_after_ms, rounded up.")),
                    ("schema", JSON.object([("type", JSON.text("string")), ("pattern", JSON.text("^[0-9]+$"))])),
                ])
            ),
        ])
    }

    var securitySchemes: JSONValue {
        JSON.object([
            (
                "apiKey",
                JSON.object([
                    ("type", JSON.text("http")), ("scheme", JSON.text("bearer")),
                    (
                        "description",
                        JSON.text(
                            "`Authorization: Bearer KEY`, when the gateway is given a file of API keys "
                                + "(--api-keys); without one it asks for none.")
                    ),
                ])
            )
        ])
    }

    /// The body of every error answer: a v1 response with `error`. Its members are the response envelope's.
    func errorResponseSchema() throws(GeneratorError) -> JSONValue {
        guard let response = index.documents["response.schema.json"], let properties = response["properties"],
            let version = properties["version"], let id = properties["id"]
        else { throw GeneratorError("response.schema.json: no properties version and id") }
        return JSON.object([
            ("title", JSON.text("Tally v1 error response")),
            ("type", JSON.text("object")),
            ("required", JSON.texts(["version", "id", "error"])),
            (
                "properties",
                JSON.object([
                    ("version", version), ("id", id), ("error", OpenAPIComponents.reference(to: "error")),
                ])
            ),
        ])
    }
}

extension OpenAPIDocument {
    /// The document of `openapi SCHEMAS-FOLDER EXAMPLES-FOLDER VERSION-FILE STATUSES-FILE DOCUMENT-FILE`'s files.
    static func read(_ arguments: [String]) throws -> OpenAPIDocument {
        let index = try SchemaIndex(root: URL(fileURLWithPath: arguments[1]))
        let version = try String(contentsOf: URL(fileURLWithPath: arguments[3]), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return OpenAPIDocument(
            index: index, methods: try ProtocolMethod.all(in: index),
            examples: try ProtocolExampleFile.all(in: URL(fileURLWithPath: arguments[2])), version: version,
            statuses: try HTTPErrorStatus.all(in: URL(fileURLWithPath: arguments[4])))
    }
}
