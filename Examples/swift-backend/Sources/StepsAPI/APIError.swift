import Hummingbird
import TallyClient
import TallyProtocol

/// An error answer of this API: `{"error": code, "message": …, "field": …, "problem": …}` with an HTTP status.
///
/// Thrown from a route, Hummingbird turns it into the response (`HTTPResponseError`). Only codes, messages and field
/// names reach the caller: what the client knows beyond them (attempts, broker states) goes to the log.
struct APIError: HTTPResponseError {
    struct Body: Encodable {
        var error: String
        var message: String
        var field: String?
        var problem: String?
    }

    var status: HTTPResponse.Status
    var body: Body
    /// Seconds after which a retry may succeed (`Retry-After`).
    var retryAfterSeconds: Int?

    init(
        _ status: HTTPResponse.Status, _ code: String, _ message: String, field: String? = nil, problem: String? = nil,
        retryAfterSeconds: Int? = nil
    ) {
        self.status = status
        self.body = Body(error: code, message: message, field: field, problem: problem)
        self.retryAfterSeconds = retryAfterSeconds
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try context.responseEncoder.encode(body, from: request, context: context)
        response.status = status
        if let retryAfterSeconds {
            response.headers[.retryAfter] = String(retryAfterSeconds)
        }
        return response
    }
}

extension APIError {
    /// The HTTP answer for a failed Tally call: the caller's fault (400), Tally busy or away (503), no answer in
    /// time (504), or anything else (502: a bad gateway, as far as the caller can tell).
    ///
    /// `code` is an open set: a code this backend does not know yet is a 502, never a crash.
    init(tally error: TallyClientError) {
        let code = error.code.rawValue
        switch error.code {
        case .invalidParams, .invalidRequest, .payloadTooLarge:
            self.init(
                .badRequest, code, error.message, field: error.details?.field, problem: error.details?.problem)
        case .overloaded, .unavailable:
            // Tally says when a retry may help; without that, a second is a fair guess.
            let milliseconds = error.details?.retryAfterMilliseconds ?? 1000
            self.init(.serviceUnavailable, code, error.message, retryAfterSeconds: max(1, (milliseconds + 999) / 1000))
        case .clientNotRunning, .clientStopped, .cancelled:
            // This process is starting or stopping: another instance (or this one, soon) can answer.
            self.init(.serviceUnavailable, code, "the backend is not ready to call Tally", retryAfterSeconds: 1)
        case .timeout:
            self.init(.gatewayTimeout, code, error.message)
        default:
            self.init(.badGateway, code, error.message)
        }
    }

    /// A request body that does not decode: 400 naming the field (`records[2].date`) and what is wrong with it.
    init(decoding error: any Error) {
        // Tally's wire types refuse what they cannot take (a zone nobody knows, a date that does not exist) with
        // Tally's own error, which already says where and what.
        if let refusal = error as? JSONDecodingError, !refusal.path.isRoot {
            let field = refusal.path.description
            let problem = refusal.problem.description
            self.init(.badRequest, "bad_request", "\(field): \(problem)", field: field, problem: problem)
            return
        }
        guard let error = error as? DecodingError else {
            self.init(.badRequest, "bad_request", "the body is not the JSON this endpoint takes")
            return
        }
        let (path, problem): ([any CodingKey], String) =
            switch error {
            case .keyNotFound(let key, let context): (context.codingPath + [key], "is required")
            case .valueNotFound(_, let context): (context.codingPath, "must not be null")
            case .typeMismatch(let type, let context): (context.codingPath, "must be \(Self.jsonName(of: type))")
            case .dataCorrupted(let context): (context.codingPath, context.debugDescription)
            @unknown default: ([], "is not valid")
            }
        guard !path.isEmpty else {
            self.init(.badRequest, "bad_request", "the body is not valid JSON, or not an object")
            return
        }
        let field = Self.fieldPath(path)
        self.init(.badRequest, "bad_request", "\(field): \(problem)", field: field, problem: problem)
    }

    /// `records[2].date` from a coding path.
    static func fieldPath(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }

    /// What a JSON author calls a Swift type.
    static func jsonName(of type: Any.Type) -> String {
        switch type {
        case is Int.Type, is Double.Type: "a number"
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is [Any].Type: "a list"
        default: "an object"
        }
    }
}
