import TallyProtocol

/// Collects the handlers of every method a worker serves, then freezes into an immutable `RequestDispatcher`.
///
/// ```swift
/// var registry = MethodRegistry()
/// registry.register(HistoryMonth.self)  // a ComputedMethod: its handler is its computation
/// registry.register(SystemPing.self) { params, context in … }
/// let dispatcher = registry.dispatcher(limits: .init())
/// ```
public struct MethodRegistry: Sendable {
    /// One method's entry in the dispatcher's table. Its closure is generic over the method where it is made
    /// (`register`), so params and result keep their types from the parsed request to the response: the table
    /// holds no erased values and no casts.
    struct Entry: Sendable {
        let service: TallyService
        /// Decodes the params from the request parsed once, then answers (`RequestDispatcher.answer`).
        let answer: @Sendable (ParsedJSON, RequestContext) -> ResponseBody
    }

    private(set) var entries: [String: Entry] = [:]

    public init() {}

    /// Registers the handler of `method`.
    /// - Important: registering a method name twice is a programming error and stops the process.
    public mutating func register<M: TallyMethod>(
        _ method: M.Type,
        handler: @escaping @Sendable (M.Params, RequestContext) throws(TallyError) -> M.Result
    ) {
        precondition(entries[M.name] == nil, "method \(M.name) registered twice")
        entries[M.name] = Entry(service: M.service) { request, context in
            RequestDispatcher.answer(M.self, request: request, context: context, handler: handler)
        }
    }

    /// Freezes the registry into the dispatcher the worker runs.
    public func dispatcher(limits: RequestLimits) -> RequestDispatcher {
        RequestDispatcher(entries: entries, limits: limits)
    }
}
