import TallyJSONCoding

/// tally-gateway's OpenAPI 3.1 document, written from Protocol/schemas and Protocol/examples at build time: a
/// `POST /v1/{method}` operation per method (its params schema as the request body, its result schema as the 200
/// body, the v1 error body for each error status), `POST /v1` for a whole envelope, and `GET /openapi.json` itself.
/// Everything a method's operation says comes from its schemas and examples, so the document cannot disagree with
/// the workers; what is the gateway's own (routes, headers, statuses) is written here once.
struct OpenAPIDocument {
    let index: SchemaIndex
    let methods: [ProtocolMethod]
    let examples: [ProtocolExampleFile]
    /// Tally's version (VERSION), the document's `info.version`.
    let version: String
    /// The status of each error code (Protocol/http/error-statuses.json).
    let statuses: [HTTPErrorStatus]

    static let requestIDHeader = "Tally-Request-Id"
    static let serviceHeader = "Tally-Service"

    /// The services of the methods that are not `system.*`, each once, in the order the methods first name them.
    var domainServices: [String] {
        var services: [String] = []
        for method in methods where !method.isSystem && !services.contains(method.service) {
            services.append(method.service)
        }
        return services
    }
    static let errorResponse = "error_response"
    static let anyNote = "\"$any\" stands for a value that differs from call to call."

    /// The whole document.
    func json() throws(GeneratorError) -> JSONValue {
        var paths: [(String, JSONValue?)] = []
        for method in methods {
            paths.append(("/v1/\(method.name)", JSON.object([("post", try operation(for: method))])))
        }
        paths.append(("/v1", JSON.object([("post", try envelopeOperation())])))
        paths.append(("/openapi.json", JSON.object([("get", documentOperation())])))
        var schemas = OpenAPIComponents.mergingAllOf(try OpenAPIComponents.schemas(index))
        schemas.append((Self.errorResponse, try errorResponseSchema()))
        return JSON.object([
            ("openapi", JSON.text("3.1.0")),
            ("info", info),
            ("tags", .array(tags)),
            ("paths", JSON.object(paths)),
            (
                "components",
                JSON.object([
                    ("schemas", JSON.object(schemas)), ("parameters", try parameters()), ("headers", headers),
                    ("securitySchemes", securitySchemes),
                ])
            ),
        ])
    }

    var info: JSONValue {
        JSON.object([
            ("title", JSON.text("Tally")),
            ("version", JSON.text(version)),
            (
                "description",
                JSON.text(
                    "Tally's protocol v1 over HTTP/1.1, through tally-gateway: `POST /v1/{method}` takes the "
                        + "method's params as its JSON body and answers its result; `POST /v1` takes a whole v1 "
                        + "request envelope and answers the whole response. Errors keep their v1 body (code, "
                        + "message, details) under the HTTP status of their code. Generated from Protocol/schemas "
                        + "and Protocol/examples when tally-gateway is built.")
            ),
            ("license", JSON.object([("name", JSON.text("Apache 2.0")), ("identifier", JSON.text("Apache-2.0"))])),
        ])
    }

    var tags: [JSONValue] {
        var areas: [String] = []
        for method in methods where !areas.contains(method.area) { areas.append(method.area) }
        return areas.map { area in
            JSON.object([("name", JSON.text(area)), ("description", JSON.text("Methods of tally.\(area)."))])
        } + [
            JSON.object([("name", JSON.text("envelope")), ("description", JSON.text("Whole v1 envelopes."))]),
            JSON.object([("name", JSON.text("document")), ("description", JSON.text("This document."))]),
        ]
    }

    /// `POST /v1/{method}`.
    func operation(for method: ProtocolMethod) throws(GeneratorError) -> JSONValue {
        let own = examples.filter { $0.folder == method.name }
        var description = method.paramsDescription.map { "Params: \($0)" } ?? ""
        if let result = method.resultDescription { description += (description.isEmpty ? "" : "\n\n") + result }
        description += "\n\nServed by \(method.isSystem ? "every service (asked on tally.history)" : method.service)."
        let requestExamples = own.compactMap { example in example.params.map { (example, $0) } }
        return JSON.object([
            ("operationId", JSON.text(method.callName)),
            ("summary", JSON.text(method.name)),
            ("description", JSON.text(description)),
            ("tags", JSON.texts([method.area])),
            (
                "parameters",
                .array(
                    (["traceparent", "tracestate", "Request-Timeout"] + (method.isSystem ? [Self.serviceHeader] : []))
                        .map(parameterReference))
            ),
            (
                "requestBody",
                JSON.object([
                    ("required", .bool(!method.isSystem)),
                    (
                        "content",
                        Self.json(
                            schema: OpenAPIComponents.reference(to: "\(method.name).params"),
                            examples: requestExamples)
                    ),
                ])
            ),
            (
                "responses",
                responses(
                    result: OpenAPIComponents.reference(to: "\(method.name).result"),
                    resultExamples: own.compactMap { example in example.result.map { (example, $0) } },
                    errorExamples: own, description: "The method's result, as the worker wrote it.")
            ),
            ("security", Self.optionalKey),
        ])
    }

    /// `POST /v1`: the error examples, whatever their method, and one example of each method.
    func envelopeOperation() throws(GeneratorError) -> JSONValue {
        var shown: [ProtocolExampleFile] = examples.filter { $0.folder == "errors" }
        for method in methods {
            if let first = examples.first(where: { $0.folder == method.name }) { shown.append(first) }
        }
        let results = shown.filter { $0.result != nil }
        return JSON.object([
            ("operationId", JSON.text("call")),
            ("summary", JSON.text("A whole v1 request envelope")),
            (
                "description",
                JSON.text(
                    "The body is a v1 request envelope (version, id, method, params, deadline, trace) and the "
                        + "answer the whole v1 response, its id the envelope's. The envelope's own deadline and "
                        + "trace count; the headers fill them in when it has none.")
            ),
            ("tags", JSON.texts(["envelope"])),
            (
                "parameters",
                .array(["traceparent", "tracestate", "Request-Timeout", Self.serviceHeader].map(parameterReference))
            ),
            (
                "requestBody",
                JSON.object([
                    ("required", .bool(true)),
                    (
                        "content",
                        Self.json(
                            schema: OpenAPIComponents.reference(to: "request"), examples: shown.map { ($0, $0.request) }
                        )
                    ),
                ])
            ),
            (
                "responses",
                responses(
                    result: OpenAPIComponents.reference(to: "response"),
                    resultExamples: results.map { ($0, $0.response) }, errorExamples: shown,
                    description: "The v1 response with its result.")
            ),
            ("security", Self.optionalKey),
        ])
    }

    /// `GET /openapi.json`.
    func documentOperation() -> JSONValue {
        JSON.object([
            ("operationId", JSON.text("openapiDocument")),
            ("summary", JSON.text("This document")),
            ("tags", JSON.texts(["document"])),
            (
                "responses",
                JSON.object([
                    (
                        "200",
                        JSON.object([
                            ("description", JSON.text("The OpenAPI 3.1 document of this gateway.")),
                            ("content", Self.json(schema: JSON.object([("type", JSON.text("object"))]), examples: [])),
                        ])
                    )
                ])
            ),
            ("security", .array([])),
        ])
    }

    /// 200 and every error status, each error with the examples whose code it answers.
    func responses(
        result: JSONValue, resultExamples: [(ProtocolExampleFile, JSONValue)], errorExamples: [ProtocolExampleFile],
        description: String
    ) -> JSONValue {
        var statuses: [(String, JSONValue?)] = [
            (
                "200",
                JSON.object([
                    ("description", JSON.text(description)),
                    ("headers", JSON.object([(Self.requestIDHeader, Self.headerReference(Self.requestIDHeader))])),
                    ("content", Self.json(schema: result, examples: resultExamples)),
                ])
            )
        ]
        for status in self.statuses {
            let matching = errorExamples.filter { $0.errorCode.map(status.codes.contains) ?? false }
            var headers: [(String, JSONValue?)] = [(Self.requestIDHeader, Self.headerReference(Self.requestIDHeader))]
            if status.status == 429 { headers.append(("Retry-After", Self.headerReference("Retry-After"))) }
            statuses.append(
                (
                    String(status.status),
                    JSON.object([
                        (
                            "description",
                            JSON.text(
                                "\(status.codes.map { "`\($0)`" }.joined(separator: ", ")): \(status.description)")
                        ),
                        ("headers", JSON.object(headers)),
                        // The codes in a form a program reads: what GatewayDocumentTests checks against the
                        // gateway's own table, and what a generated client may switch on.
                        ("x-tally-error-codes", JSON.texts(status.codes)),
                        (
                            "content",
                            Self.json(
                                schema: OpenAPIComponents.reference(to: Self.errorResponse),
                                examples: matching.map { ($0, $0.response) })
                        ),
                    ])
                ))
        }
        return JSON.object(statuses)
    }

    /// `{"application/json": {"schema": …, "examples": {…}}}`, each example named after its file.
    static func json(schema: JSONValue, examples: [(ProtocolExampleFile, JSONValue)]) -> JSONValue {
        var named: [(String, JSONValue?)] = []
        for (example, value) in examples {
            named.append(
                (
                    "\(example.folder)/\(example.name)",
                    JSON.object([
                        ("summary", example.description.map(JSON.text)),
                        ("description", containsAny(value) ? JSON.text(anyNote) : nil),
                        ("value", value),
                    ])
                ))
        }
        return JSON.object([
            (
                "application/json",
                JSON.object([("schema", schema), ("examples", named.isEmpty ? nil : JSON.object(named))])
            )
        ])
    }

    static func containsAny(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let text): text == "$any"
        case .array(let elements): elements.contains(where: containsAny)
        case .object(let object): object.members.contains { containsAny($0.value) }
        default: false
        }
    }

    /// Without a key, or with one: whether keys are asked for is the gateway's setting, not the document's.
    static let optionalKey: JSONValue = .array([JSON.object([]), JSON.object([("apiKey", .array([]))])])

    func parameterReference(_ name: String) -> JSONValue {
        JSON.object([("$ref", JSON.text("#/components/parameters/\(name)"))])
    }

    static func headerReference(_ name: String) -> JSONValue {
        JSON.object([("$ref", JSON.text("#/components/headers/\(name)"))])
    }
}
