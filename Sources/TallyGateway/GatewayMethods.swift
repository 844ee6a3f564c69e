import TallyJSONCoding
import TallyProtocol

/// The methods the gateway routes, from TallyProtocol's method table (which is generated from the same schemas as
/// the OpenAPI document): each by name with the MDP service it is sent to, by the rule TallyClient sends by
/// (`TallyMethod.defaultService`).
struct GatewayMethods: Sendable {
    /// The service of each method, by name.
    let services: [String: String]
    /// Every method's name, sorted: the `methods` of the gateway's own `unknown_method` answers.
    let names: [String]
    /// The areas of the domain methods (`history`): an envelope's unknown method of a known area goes to that
    /// area's service, whose worker names the methods it has.
    let areas: Set<String>
    /// The methods every service answers (`system.*`), which a `Tally-Service` header may send elsewhere.
    let answeredEverywhere: Set<String>

    static let v1 = GatewayMethods(TallyMethods.v1)

    init(_ methods: [any TallyMethod.Type]) {
        services = Dictionary(uniqueKeysWithValues: methods.map { ($0.name, $0.defaultService.rawValue) })
        names = services.keys.sorted()
        answeredEverywhere = Set(methods.filter { $0.service == .system }.map { $0.name })
        areas = Set(methods.filter { $0.service != .system }.map { String($0.name.prefix { $0 != "." }) })
    }

    /// Where an envelope's method goes: its own service when the gateway knows it, else the service of its area
    /// when that is one of Tally's (whose worker answers `unknown_method` listing what it has), else nowhere.
    func service(ofEnvelopeMethod method: String) -> String? {
        if let service = services[method] { return service }
        let area = String(method.prefix { $0 != "." })
        guard areas.contains(area), method.count > area.count + 1 else { return nil }
        return TallyService(sendingMethod: method).rawValue
    }

    /// The header that picks the service a `system.*` method is asked on: `tally.history` (the default),
    /// `tally.streak` or `tally.workout`. Each service answers them for itself (`system.describe` lists its own
    /// methods), so an HTTP caller needs a way to say which, as an MDP client says it with the service it sends to.
    static let serviceHeader = "Tally-Service"

    /// `service`, the one `method` goes to, or the one a `Tally-Service` header of `asked` picks for a `system.*`
    /// method.
    /// - Throws: `invalid_request` naming `service` for a header that names no service of Tally's, or another
    ///   service than a domain method's own (it would be refused there as `unknown_method`, which is not what the
    ///   caller did wrong).
    func service(_ service: String, of method: String, asked: String?) throws(TallyError) -> String {
        guard let asked else { return service }
        let services = TallyService.domainServices.map(\.rawValue)
        guard services.contains(asked) else {
            throw .invalidRequest(
                "service",
                "the \(Self.serviceHeader) header '\(asked.prefix(64))' is none of \(services.joined(separator: ", "))")
        }
        if answeredEverywhere.contains(method) { return asked }
        guard asked == service else {
            throw .invalidRequest(
                "service", "\(method.prefix(100)) is served by \(service), not by \(asked) (\(Self.serviceHeader))")
        }
        return service
    }

    /// The gateway's own answer to a method it has no route for.
    func unknown(_ method: String) -> TallyError {
        TallyError(
            .unknownMethod, "Tally has no method '\(method.prefix(100))'",
            details: ErrorDetails(field: "method", methods: names))
    }
}
