/// The gateway's OpenAPI 3.1 document, `GET /openapi.json`. Its text (`json`) is generated when the gateway is
/// built, from Protocol/schemas and Protocol/examples (the WireTypes plugin runs WireTypeGenerator's `openapi`), so
/// it lists exactly the methods, params and results the workers of the same checkout serve.
package enum OpenAPIDocument {
    /// The document's bytes, made once.
    package static let bytes: [UInt8] = Array(json.utf8)
}
