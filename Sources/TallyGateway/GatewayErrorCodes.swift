import TallyProtocol

extension ErrorCode {
    /// The gateway's own: API keys are on and the request carries none that the gateway knows (401). Never sent to
    /// a broker, never answered by one.
    package static let unauthorized = Self(rawValue: "unauthorized")
    /// The gateway's own: no route has this path (404).
    package static let notFound = Self(rawValue: "not_found")
    /// The gateway's own: the path exists, for another HTTP method (405).
    package static let methodNotAllowed = Self(rawValue: "method_not_allowed")
}
