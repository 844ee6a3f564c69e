import TallyProtocol

/// Which MDP service a method goes to, for request bodies that say only their method (a raw v1 envelope names no
/// service: the transport carries it).
enum MethodService {
    /// The methods of v1 (`TallyMethods`), by name, each to its default service (`system.*`, answered by every
    /// service, as the generated `system.ping` is sent).
    static let known: [String: TallyService] = Dictionary(
        uniqueKeysWithValues: TallyMethods.v1.map { method in (method.name, method.defaultService) })

    /// The service of `method`: a known method's, else `tally.AREA` for a method named `AREA.…` of a domain
    /// service (an unknown method there is answered `unknown_method`, which is worth measuring too), else `nil`.
    static func service(for method: String) -> TallyService? {
        if let service = known[method] { return service }
        let area = method.split(separator: ".", maxSplits: 1).first.map(String.init) ?? ""
        return TallyService.domainServices.first { $0.rawValue == "tally." + area }
    }
}
