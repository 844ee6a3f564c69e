import TallyJSONCoding

extension TallyError {
    /// The error a client sees for a request body the decoder refused: a body that is not JSON is
    /// `malformed_json`; a problem under `params` is `invalid_params` naming the field; anything else (the envelope,
    /// or `params` itself) is `invalid_request`. The decoder's words become `details.problem`.
    package init(decoding error: JSONDecodingError) {
        if case .notJSON(let syntax) = error.problem {
            self = TallyError(.malformedJSON, "the body is not valid JSON: \(syntax)")
            return
        }
        guard case .key(let top)? = error.path.components.first else {
            self = TallyError(.invalidRequest, "the request must be a JSON object")
            return
        }
        let problem = error.problem.description
        self =
            top == "params" && error.path.components.count > 1
            ? .invalidParams(error.path, problem) : .invalidRequest(error.path, problem)
    }
}
