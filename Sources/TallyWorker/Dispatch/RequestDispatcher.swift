import Foundation
import Logging
import TallyJSONCoding
import TallyProtocol

/// Turns one request body into exactly one response body: parse → envelope → params → validate → compute → encode.
///
/// The body is parsed once; the envelope is decoded from it, and then, once the method is known, its params, from
/// the same parse and straight into the method's own type (`MethodRegistry.Entry`). Immutable and `Sendable`: the
/// worker runs it for many requests at once. It never throws and never traps on input; every failure becomes a v1
/// error response echoing the request id when one could be read.
public struct RequestDispatcher: Sendable {
    let entries: [String: MethodRegistry.Entry]
    /// The limits enforced on every request.
    public let limits: RequestLimits

    init(entries: [String: MethodRegistry.Entry], limits: RequestLimits) {
        self.entries = entries
        self.limits = limits
    }

    /// Every registered method, sorted.
    public var methodNames: [String] { entries.keys.sorted() }

    /// The methods answered on `service`, sorted.
    public func methods(of service: String) -> [String] {
        entries.filter { $0.value.answers(on: service) }.keys.sorted()
    }

    /// Answers one request.
    /// - Parameters:
    ///   - body: the request's JSON body.
    ///   - service: the MDP service it came through (decides which methods exist).
    ///   - connection: the worker connection carrying it, for `system.ping` and logs.
    ///   - now: the current time, for deadlines.
    ///   - logger: the worker's logger.
    public func respond(
        to body: [UInt8], service: String, connection: Int = 0, now: Date = Date(), logger: Logger
    ) -> ResponseBody {
        guard body.count <= limits.maxBodyBytes else {
            return .failure(
                id: EnvelopeScanner.id(in: body),
                .payloadTooLarge("body", count: body.count, limit: limits.maxBodyBytes, unit: "bytes"))
        }
        let request: ParsedJSON
        do {
            request = try ParsedJSON(parsing: body)
        } catch {
            guard PlainASCIIScan.isUTF8TextWithoutNUL(body) else {
                return .failure(id: nil, TallyError(.malformedJSON, "the body is not UTF-8 JSON text"))
            }
            return .failure(id: nil, TallyError(decoding: error))
        }
        let head: RequestHead
        do {
            head = try request.decode(RequestHead.self)
        } catch let failure as RequestFailure {
            return .failure(id: failure.id, failure.error)
        } catch {
            return .failure(id: nil, TallyError(.internal, "the envelope could not be read"))
        }
        guard let entry = entries[head.method], entry.answers(on: service) else {
            // The name is the client's text: it is echoed shortened and never becomes a metrics label.
            var response = ResponseBody.failure(
                id: head.id,
                TallyError(
                    .unknownMethod, "\(service) has no method '\(head.method.prefix(100))'",
                    details: ErrorDetails(field: "method", methods: methods(of: service), service: service)))
            response.trace = head.trace
            return response
        }
        let context = RequestContext(
            head: head, service: service, connection: connection, receivedAt: now, limits: limits, logger: logger)
        guard head.trace != nil else { return entry.answer(request, context) }
        var response = entry.answer(request, context)
        response.trace = head.trace
        return response
    }

    /// Answers a request for `method` whose envelope is read: decodes its params from `request`, then computes it
    /// unless its deadline has passed, and answers `deadline_exceeded` instead of a result that comes too late.
    static func answer<M: TallyMethod>(
        _ method: M.Type, request: ParsedJSON, context: RequestContext,
        handler: (M.Params, RequestContext) throws(TallyError) -> M.Result
    ) -> ResponseBody {
        let head = context.head
        let params: M.Params
        do {
            params = try request.decode(M.Params.self, member: RequestHead.CodingKeys.params.rawValue)
        } catch {
            return .failure(id: head.id, paramsError(error), method: M.name)
        }
        if let deadline = head.deadline, deadline.instant <= context.receivedAt {
            return .failure(id: head.id, expired(deadline), method: M.name)
        }
        let computeStartedAt = head.trace == nil ? nil : ContinuousClock.now
        var response: ResponseBody
        do throws(TallyError) {
            response = .result(try handler(params, context), context: context)
        } catch {
            response = .failure(id: head.id, error, method: M.name)
        }
        if let deadline = head.deadline, deadline.instant <= Date() {
            response = .failure(id: head.id, expired(deadline), method: M.name)
        }
        response.computed = true
        response.computeStartedAt = computeStartedAt
        return response
    }

    /// What the client hears about params that could not be decoded: the decoder's refusal at its field, or the
    /// `TallyError` a params type threw itself (a time frame that gives both `now` and `today`).
    private static func paramsError(_ error: any Error) -> TallyError {
        switch error {
        case let error as JSONDecodingError: TallyError(decoding: error)
        case let error as TallyError: error
        default: TallyError(.internal, "params could not be decoded")
        }
    }

    private static func expired(_ deadline: Timestamp) -> TallyError {
        TallyError(.deadlineExceeded, "the deadline \(deadline) passed before the request could be answered")
    }
}
