extension TallyError {
    /// Translates a `DecodingError` from decoding a request body into the error the client sees: syntax errors
    /// are `malformed_json`; everything under `params` is `invalid_params` with the field's path; anything else
    /// is `invalid_request`.
    public init(decoding error: DecodingError) {
        let (path, problem): ([any CodingKey], String) =
            switch error {
            case .typeMismatch(let type, let context):
                (context.codingPath, "expected \(Self.jsonTypeName(type))")
            case .valueNotFound(let type, let context):
                (context.codingPath, "must be \(Self.jsonTypeName(type)), not null")
            case .keyNotFound(let key, let context):
                (context.codingPath + [key], "is required")
            case .dataCorrupted(let context):
                (context.codingPath, context.debugDescription)
            @unknown default:
                ([], "cannot be decoded")
            }
        let field = FieldPath(codingPath: path)
        guard case .key(let top)? = field.components.first else {
            if case .dataCorrupted = error {
                self = TallyError(.malformedJSON, "the body is not valid JSON: \(problem)")
            } else {
                self = TallyError(.invalidRequest, "the request must be a JSON object")
            }
            return
        }
        self =
            top == "params" && field.components.count > 1
            ? .invalidParams(field, problem) : .invalidRequest(field, problem)
    }

    private static func jsonTypeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type: "an integer"
        case is Double.Type, is Float.Type: "a number"
        case is [Any].Type: "an array"
        default:
            String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}
