import HTTPTypes

/// The gateway's routes, and nothing else: each path it answers, with the one HTTP method it answers there.
enum GatewayRoute: Equatable {
    /// `POST /v1/{method}`, a method Tally has.
    case method(String)
    /// `POST /v1`, a whole envelope.
    case envelope
    /// `GET /openapi.json` (and `HEAD`).
    case document
    /// `/v1/{name}` for a name that is no method of Tally's: `unknown_method`.
    case unknownMethod(String)
    /// Any other path: `not_found`.
    case none

    static let prefix = "/v1/"

    init(path: String, methods: GatewayMethods) {
        if path == "/v1" {
            self = .envelope
        } else if path == "/openapi.json" {
            self = .document
        } else if path.hasPrefix(Self.prefix) {
            let name = String(path.dropFirst(Self.prefix.count))
            if methods.services[name] != nil {
                self = .method(name)
            } else {
                // A method's name has no slash: a deeper path is no route rather than a method that is missing.
                self = name.contains("/") ? .none : .unknownMethod(name)
            }
        } else {
            self = .none
        }
    }

    /// Whether it is a call, for which an API key may be asked.
    var isCall: Bool {
        switch self {
        case .method, .envelope, .unknownMethod: true
        case .document, .none: false
        }
    }

    /// The HTTP methods it answers; any other is answered 405. `nil` for a name or path that is no route, answered
    /// 404 whatever the method.
    var methods: [HTTPRequest.Method]? {
        switch self {
        case .method, .envelope: Self.callMethods
        case .document: Self.documentMethods
        case .unknownMethod, .none: nil
        }
    }

    // Made once: every request asks.
    private static let callMethods: [HTTPRequest.Method] = [.post]
    private static let documentMethods: [HTTPRequest.Method] = [.get, .head]

    /// ``methods`` as `Allow` of a 405 says them.
    var allowed: String? {
        methods.map { $0.map(\.rawValue).joined(separator: ", ") }
    }
}
