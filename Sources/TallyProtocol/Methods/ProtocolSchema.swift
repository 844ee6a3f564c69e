/// The `$id`s of Protocol/schemas: one base, and a file per envelope and per method's params and result.
///
/// `system.describe` reports them, and a test holds each to the `$id` written in its file, so a client can fetch
/// or match the schema a worker says it speaks.
public enum ProtocolSchema {
    /// Where every schema's `$id` starts.
    public static let base = "https://tally.example/schemas/"
    /// The request envelope.
    public static let request = base + "request.schema.json"
    /// The response envelope (a result or an error).
    public static let response = base + "response.schema.json"
}

extension TallyMethod {
    /// The `$id` of this method's params schema (`methods/NAME.params.schema.json`).
    public static var paramsSchemaID: String { ProtocolSchema.base + "methods/\(name).params.schema.json" }
    /// The `$id` of this method's result schema (`methods/NAME.result.schema.json`).
    public static var resultSchemaID: String { ProtocolSchema.base + "methods/\(name).result.schema.json" }
}
