import TallyJSONCoding
import TallyProtocol

/// Collects the handlers of every method a worker serves, then freezes into an immutable `RequestDispatcher`.
///
/// ```swift
/// var registry = MethodRegistry()
/// registry.register(HistoryMonth.self)  // a ComputedMethod: its handler is its computation
/// registry.register(SystemPing.self) { params, context in … }
/// let dispatcher = registry.dispatcher(limits: .init())
/// ```
package struct MethodRegistry: Sendable {
    /// One method's entry in the dispatcher's table. Its closure is generic over the method where it is made
    /// (`register`), so params and result keep their types from the parsed request to the response: the table
    /// holds no erased values and no casts.
    struct Entry: Sendable {
        let service: TallyService
        /// Its name and schema ids, for `system.describe`.
        let description: SystemDescribe.Method
        /// Decodes the params from the request parsed once, then answers (`RequestDispatcher.answer`).
        let answer: @Sendable (ParsedJSON, RequestContext) -> ResponseBody
        /// Reads the params straight off the body when the method's params read directly
        /// (`JSONDirectDecodable`, or a `SelectiveMethod`'s own read), under the dispatcher's limits, and answers once
        /// the rest of the body is read too; `nil` when they do not.
        var readParams: DirectRead?

        /// Whether the method is answered on `service`: its own, or any for a `system` method.
        func answers(on service: String) -> Bool { self.service.isAnswered(on: service) }
    }

    private(set) var entries: [String: Entry] = [:]
    /// Set by `registerSystemMethods`: `system.describe` is added when the registry freezes, so that it describes
    /// every method the dispatcher serves, whatever the order of registration.
    var describingWorker: WorkerIdentity?

    package init() {}

    /// Registers the handler of `method`.
    /// - Important: registering a method name twice is a programming error and stops the process.
    package mutating func register<M: TallyMethod>(
        _ method: M.Type,
        handler: @escaping @Sendable (M.Params, RequestContext) throws(TallyError) -> M.Result
    ) {
        precondition(entries[M.name] == nil, "method \(M.name) registered twice")
        entries[M.name] = Entry(
            service: M.service, description: SystemDescribe.Method(M.self),
            answer: { request, context in
                RequestDispatcher.answer(M.self, request: request, context: context, handler: handler)
            },
            readParams: Self.directParams(of: M.self, handler: handler))
    }

    /// Replaces how the params of the method named `name` are read directly (a `SelectiveMethod` reads them its own
    /// way).
    mutating func setDirectRead(of name: String, _ read: @escaping DirectRead) {
        entries[name]?.readParams = read
    }

    /// Answers a request whose params were read directly, given its context.
    typealias DirectAnswer = (RequestContext) -> ResponseBody

    /// Reads a method's params at the cursor, under the dispatcher's limits, into the answer to give.
    typealias DirectRead = @Sendable (inout JSONCursor, RequestLimits) -> DirectAnswer?

    /// The direct read of `M`'s params, when they have one: decided once, here, so that a request pays no lookup.
    private static func directParams<M: TallyMethod>(
        of method: M.Type, handler: @escaping @Sendable (M.Params, RequestContext) throws(TallyError) -> M.Result
    ) -> DirectRead? {
        guard let type = M.Params.self as? any JSONDirectDecodable.Type,
            let read = reader(of: type) as? @Sendable (inout JSONCursor) -> M.Params?
        else { return nil }
        return { cursor, _ in
            guard let params = read(&cursor) else { return nil }
            return { context in RequestDispatcher.answer(M.self, params: params, context: context, handler: handler) }
        }
    }

    /// The direct read of `Params` as a function, so that the cast to the method's own params type is made once, of
    /// the function, rather than of every request's value.
    /// Returned as `Any`: returned as its own type, the opened existential would erase it into another function.
    private static func reader<Params: JSONDirectDecodable>(of type: Params.Type) -> Any {
        let read: @Sendable (inout JSONCursor) -> Params? = { cursor in Params(direct: &cursor) }
        return read
    }

    /// Freezes the registry into the dispatcher the worker runs.
    package func dispatcher(limits: RequestLimits) -> RequestDispatcher {
        var registry = self
        if let describingWorker { registry.registerDescribe(of: describingWorker) }
        return RequestDispatcher(entries: registry.entries, limits: limits)
    }

    /// The methods answered on `service`, as `system.describe` lists them: its own and the `system` ones, by name.
    func descriptions(on service: String) -> [SystemDescribe.Method] {
        entries.filter { $0.value.answers(on: service) }.map(\.value.description).sorted { $0.name < $1.name }
    }
}
