/// A v1 method: its wire name, the MDP service that serves it, and its params and result types.
///
/// The same description drives the worker (which registers a handler for it) and the client (whose generic
/// `call(_:_:)` encodes `Params` and decodes `Result`), so the two cannot disagree about a method's shape.
public protocol TallyMethod: Sendable {
    /// The method's params: the `params` of its requests.
    associatedtype Params: Codable & Sendable
    /// The method's result: the `result` of its answers that are not errors.
    associatedtype Result: Codable & Sendable

    /// `area.name`, e.g. `history.month`.
    static var name: String { get }
    /// The MDP service that serves it.
    static var service: TallyService { get }
}

/// The MDP service names of Tally: one per area of the method names (`tally.history` for `history.*`, generated
/// with the methods). `system` methods are answered by every service.
public struct TallyService: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// The service a request for the method `name` goes to when its sender names none: its area's (`tally.history`
    /// for `history.month`, `tally.sleep` for a `sleep.night` Tally does not know); a `system.*` method, which every
    /// service answers, to `tally.history`, which every worker serves unless told otherwise. The one place that
    /// says so: the client, the CLI and the load tool ask here.
    public init(sendingMethod name: String) {
        let area = name.prefix { $0 != "." }
        self = area == "system" ? .history : Self(rawValue: "tally.\(area)")
    }

    /// Whether a method of this service (its `TallyMethod.service`) is answered on `service`: on its own, and a
    /// `system` method on every service. The worker's registry and `FakeTally` answer by it.
    package func isAnswered(on service: String) -> Bool { self == .system || rawValue == service }
}

extension TallyMethod {
    /// The service a request for this method goes to when its sender names none (`TallyService(sendingMethod:)`).
    public static var defaultService: TallyService { TallyService(sendingMethod: name) }
}
