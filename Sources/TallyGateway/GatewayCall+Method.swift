import TallyJSONCoding
import TallyProtocol

extension GatewayCall {
    /// `POST /v1/{method}`: an envelope the gateway writes around the body, which is the params (none for an empty
    /// body). The params are checked to be JSON and otherwise passed on as they came, for the worker to read and
    /// judge: a body that is not JSON would make an envelope that no worker can read the id of, whose answer could
    /// not find its call.
    /// - Returns: the call, or the gateway's own answer (`malformed_json`).
    static func forMethod(
        _ method: String, service: String, params: [UInt8], trace: TraceHeaders?, time: CallTime, id: String
    ) -> Prepared {
        let hasParams = params.contains { !(0x20 == $0 || 0x09 == $0 || 0x0A == $0 || 0x0D == $0) }
        if hasParams {
            do {
                _ = try ParsedJSON(parsing: params)
            } catch {
                return .answer(.error(TallyError(decoding: error), id: id, requestID: id))
            }
        }
        var body: [UInt8] = []
        body.reserveCapacity(params.count + 256)
        body.append(contentsOf: Array(#"{"version":1,"id":"#.utf8))
        JSONText.appendString(id, to: &body)
        body.append(contentsOf: Array(#","method":"#.utf8))
        JSONText.appendString(method, to: &body)
        // Before the params: the broker reads `trace` for its log lines from the body's first 4 KiB only.
        if let trace {
            body.append(contentsOf: Array(#","trace":"#.utf8))
            JSONText.appendTrace(trace, to: &body)
        }
        if hasParams {
            body.append(contentsOf: Array(#","params":"#.utf8))
            body.append(contentsOf: params)
        }
        body.append(contentsOf: Array(#","deadline":"#.utf8))
        JSONText.appendString(time.deadline.description, to: &body)
        body.append(UInt8(ascii: "}"))
        return .call(
            GatewayCall(method: method, service: service, body: body, wireID: id, time: time, answering: .resultAlone))
    }
}
