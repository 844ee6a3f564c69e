import Foundation
import Logging
import TallyCalendar
import TallyJSONCoding
import TallyProtocol

/// Turns one request body into exactly one response body: parse → envelope → params → validate → compute → encode.
///
/// The body is parsed once; the envelope is decoded from it, and then, once the method is known, its params, from
/// the same parse and straight into the method's own type (`MethodRegistry.Entry`). Immutable and `Sendable`: the
/// worker runs it for many requests at once. It never throws and never traps on input; every failure becomes a v1
/// error response echoing the request id when one could be read.
package struct RequestDispatcher: Sendable {
    let entries: [String: MethodRegistry.Entry]
    /// The limits enforced on every request.
    package let limits: RequestLimits
    /// Whether plain requests are read straight off their body (`directRequest`); the parity tests turn it off to
    /// compare with the standard path.
    var readsDirectly = true

    init(entries: [String: MethodRegistry.Entry], limits: RequestLimits) {
        self.entries = entries
        self.limits = limits
    }

    /// Every registered method, sorted.
    package var methodNames: [String] { entries.keys.sorted() }

    /// The methods answered on `service`, sorted.
    package func methods(of service: String) -> [String] {
        entries.filter { $0.value.answers(on: service) }.keys.sorted()
    }

    /// Answers one request.
    /// - Parameters:
    ///   - body: the request's JSON body.
    ///   - service: the MDP service it came through (decides which methods exist).
    ///   - connection: the worker connection carrying it, for `system.ping` and logs.
    ///   - now: the current time, for deadlines.
    ///   - logger: the worker's logger.
    package func respond(
        to body: [UInt8], service: String, connection: Int = 0, now: Instant = .now, logger: Logger
    ) -> ResponseBody {
        guard body.count <= limits.maxBodyBytes else {
            return .failure(
                id: EnvelopeScanner.id(in: body),
                .payloadTooLarge("body", count: body.count, limit: limits.maxBodyBytes, unit: "bytes"))
        }
        if readsDirectly, let direct = directRequest(body, service: service) {
            let context = RequestContext(
                head: direct.head, service: service, connection: connection, receivedAt: now, limits: limits,
                logger: logger)
            return direct.answer(context)
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

    /// The envelope and the params of a plain, valid request read in one pass straight off the body
    /// (`JSONCursor`), members in any order as long as `method` comes before `params`; `nil` for anything else,
    /// which the standard path (parse, then decode) reads and words. What it accepts is exactly what the standard
    /// path accepts, to the same values (`DirectDecodingParityTests`): a supported version, an id of 1...128
    /// characters, a method this service answers whose params read directly, a plain deadline or none; no trace
    /// (the W3C checks are the standard path's). The answer is made only once the whole body is read.
    func directRequest(_ body: [UInt8], service: String) -> (head: RequestHead, answer: MethodRegistry.DirectAnswer)? {
        JSONCursor.read(body, maxListElements: limits.maxListElements) { cursor in
            var version: Int?
            var id: String?
            var method: String?
            var deadline: Timestamp?
            var answer: MethodRegistry.DirectAnswer?
            // Params met before the method (an encoder writing members in hash order) are passed over, and read
            // once the method is known.
            var deferredParams: JSONSpan?
            let read = cursor.object { key, cursor in
                if key.is("params") {
                    guard answer == nil, deferredParams == nil else { return false }
                    guard let method else {
                        deferredParams = cursor.skipValue()
                        return deferredParams != nil
                    }
                    guard let entry = entries[method], entry.answers(on: service), let readParams = entry.readParams
                    else { return false }
                    answer = readParams(&cursor, limits)
                    return answer != nil
                }
                if key.is("version") {
                    guard version == nil else { return false }
                    version = cursor.int()
                    return version != nil
                }
                if key.is("id") {
                    guard id == nil else { return false }
                    id = cursor.string()
                    return id != nil
                }
                if key.is("method") {
                    guard method == nil else { return false }
                    method = cursor.string()
                    return method != nil
                }
                if key.is("deadline") {
                    guard deadline == nil else { return false }
                    deadline = cursor.text { try? Timestamp(utf8: $0) }
                    return deadline != nil
                }
                return false
            }
            guard read, let version, ProtocolVersion.supported.contains(version), let id, !id.isEmpty,
                id.count <= RequestHead.maximumIDLength, let method
            else { return nil }
            if let deferredParams {
                guard let entry = entries[method], entry.answers(on: service), let readParams = entry.readParams else {
                    return nil
                }
                answer = cursor.reading(deferredParams) { readParams(&$0, limits) }
            }
            // Params left out are read as `null`, as the standard path reads a missing member: `system.ping`
            // takes none.
            guard let answer = answer ?? absentParams(for: entries[method], on: service) else { return nil }
            return (RequestHead(version: version, id: id, method: method, deadline: deadline), answer)
        }
    }

    /// The answer to a request without `params`, when its method's direct read takes `null`.
    private func absentParams(
        for entry: MethodRegistry.Entry?, on service: String
    ) -> MethodRegistry.DirectAnswer? {
        guard let entry, entry.answers(on: service), let readParams = entry.readParams else { return nil }
        return JSONCursor.read(Self.absent) { readParams(&$0, limits) }
    }

    private static let absent = Array("null".utf8)

    /// Answers a request for `method` whose envelope is read: decodes its params from `request`, then computes it
    /// unless its deadline has passed, and answers `deadline_exceeded` instead of a result that comes too late.
    static func answer<M: TallyMethod>(
        _ method: M.Type, request: ParsedJSON, context: RequestContext,
        handler: (M.Params, RequestContext) throws(TallyError) -> M.Result
    ) -> ResponseBody {
        let params: M.Params
        do {
            params = try request.decode(M.Params.self, member: RequestHead.CodingKeys.params.rawValue)
        } catch {
            return .failure(id: context.head.id, paramsError(error), method: M.name)
        }
        return answer(method, params: params, context: context, handler: handler)
    }

    /// Answers a request for `method` whose envelope and params are read (as `M.Params`, or as the form a
    /// `SelectiveMethod` reads them into): computes it unless its deadline has passed, and answers
    /// `deadline_exceeded` instead of a result that comes too late.
    static func answer<M: TallyMethod, Input>(
        _ method: M.Type, params: Input, context: RequestContext,
        handler: (Input, RequestContext) throws(TallyError) -> M.Result
    ) -> ResponseBody {
        let head = context.head
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
        if let deadline = head.deadline, deadline.instant <= Instant.now {
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
