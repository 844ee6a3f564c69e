import TallyCalendar
import TallyJSONCoding
import TallyProtocol

extension GatewayCall {
    /// `POST /v1`: the caller's envelope, sent as it came but for its id, which becomes the gateway's (callers of
    /// one gateway may choose the same ids; TallyClient matches replies by id), and a `deadline` and `trace` from
    /// the headers when the envelope has none. The envelope is read as the worker reads it (the same parser and
    /// `RequestHead`), so a request the worker would refuse for its envelope gets the worker's answer here, without
    /// a round trip, and the call can be routed by its method.
    /// - Returns: the call, or the gateway's own answer.
    static func forEnvelope(
        _ envelope: [UInt8], methods: GatewayMethods, service askedService: String?, trace: TraceHeaders?,
        asked: Duration?, timeouts: Timeouts, now: Instant, id: String
    ) -> Prepared {
        let head: RequestHead
        do {
            head = try ParsedJSON(parsing: envelope).decode(RequestHead.self)
        } catch let error as JSONDecodingError {
            return .answer(.error(TallyError(decoding: error), id: nil, requestID: nil))
        } catch let failure as RequestFailure {
            return .answer(.error(failure.error, id: failure.id, requestID: nil))
        } catch {
            return .answer(.error(TallyError(.internal, "the envelope could not be read"), id: nil, requestID: nil))
        }
        guard let known = methods.service(ofEnvelopeMethod: head.method) else {
            return .answer(.error(methods.unknown(head.method), id: head.id, requestID: nil))
        }
        let service: String
        do throws(TallyError) {
            service = try methods.service(known, of: head.method, asked: askedService)
        } catch {
            return .answer(.error(error, id: head.id, requestID: nil))
        }
        guard let members = TopLevelMembers(envelope), let idMember = members.first("id", in: envelope),
            let idText = TopLevelMembers.stringContents(idMember.value, in: envelope)
        else {
            return .answer(
                .error(TallyError(.invalidRequest, "the envelope's id cannot be read"), id: nil, requestID: nil))
        }
        var inserted: [UInt8] = []
        let time: CallTime
        if let deadline = head.deadline {
            guard let left = timeouts.time(until: deadline.instant, asked: asked, now: now) else {
                return .answer(
                    .error(
                        TallyError(.deadlineExceeded, "the request's deadline had passed when the gateway received it"),
                        id: head.id, requestID: nil))
            }
            time = left
        } else {
            time = timeouts.time(asked: asked, now: now)
            JSONText.appendMember("deadline", to: &inserted)
            JSONText.appendString(time.deadline.description, to: &inserted)
            inserted.append(UInt8(ascii: ","))
        }
        if head.trace == nil, let trace {
            JSONText.appendMember("trace", to: &inserted)
            JSONText.appendTrace(trace, to: &inserted)
            inserted.append(UInt8(ascii: ","))
        }
        // The members the gateway adds come first (the broker reads `trace` from the first 4 KiB): after the `{`,
        // each with its comma, before the caller's (an envelope that `RequestHead` read has members).
        var body: [UInt8] = []
        body.reserveCapacity(envelope.count + inserted.count + id.utf8.count)
        body.append(contentsOf: envelope[...members.openingBrace])
        body.append(contentsOf: inserted)
        body.append(contentsOf: envelope[(members.openingBrace + 1)..<idText.lowerBound])
        body.append(contentsOf: Array(id.utf8))
        body.append(contentsOf: envelope[idText.upperBound...])
        return .call(
            GatewayCall(
                method: methods.services[head.method] == nil ? nil : head.method, service: service, body: body,
                wireID: id, time: time, answering: .wholeResponse(callerID: Array(envelope[idText]))))
    }
}
