/// A v1 method: its wire name, the MDP service that serves it, and its params and result types.
///
/// The same description drives the worker (which registers a handler for it) and the client (whose generic
/// `call(_:_:)` encodes `Params` and decodes `Result`), so the two cannot disagree about a method's shape.
public protocol TallyMethod: Sendable {
    associatedtype Params: Codable & Sendable
    associatedtype Result: Codable & Sendable

    /// `area.name`, e.g. `history.month`.
    static var name: String { get }
    /// The MDP service that serves it.
    static var service: TallyService { get }
}

/// The MDP service names of Tally. `system` methods are answered by every service.
public struct TallyService: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    public static let history = Self(rawValue: "tally.history")
    public static let streak = Self(rawValue: "tally.streak")
    public static let workout = Self(rawValue: "tally.workout")
    /// Not an MDP service of its own: methods registered here are answered on every service.
    public static let system = Self(rawValue: "tally.system")

    /// The domain services a worker serves by default.
    public static let domainServices: [TallyService] = [.history, .streak, .workout]
}
