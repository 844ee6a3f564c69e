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

    /// The HTTP method it answers (`Allow` of a 405).
    var allowed: String? {
        switch self {
        case .method, .envelope: "POST"
        case .document: "GET, HEAD"
        case .unknownMethod, .none: nil
        }
    }
}
