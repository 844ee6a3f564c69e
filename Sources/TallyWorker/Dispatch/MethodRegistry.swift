import TallyProtocol

/// Collects the handlers of every method a worker serves, then freezes into an immutable `RequestDispatcher`.
///
/// ```swift
/// var registry = MethodRegistry()
/// registry.register(HistoryMonth.self) { params, context in try HistoryService.month(params, context) }
/// let dispatcher = registry.dispatcher(limits: .init())
/// ```
public struct MethodRegistry: Sendable {
    /// A method's handler with its types erased, so that methods of any types share one table.
    struct Entry: Sendable {
        let service: TallyService
        let decodeParams: @Sendable (any Decoder) throws -> any Sendable
        let respond: @Sendable (any Sendable, RequestContext) -> ResponseBody
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
        entries[M.name] = Entry(
            service: M.service,
            decodeParams: { decoder in try M.Params(from: decoder) },
            respond: { params, context in
                do throws(TallyError) {
                    return .result(try handler(params as! M.Params, context), context: context)
                } catch {
                    return .failure(id: context.head.id, error, method: context.head.method)
                }
            }
        )
    }

    /// Freezes the registry into the dispatcher the worker runs.
    public func dispatcher(limits: RequestLimits) -> RequestDispatcher {
        RequestDispatcher(entries: entries, limits: limits)
    }
}
