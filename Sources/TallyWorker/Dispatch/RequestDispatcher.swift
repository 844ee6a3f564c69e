import Foundation
import Logging
import TallyProtocol

/// Turns one request body into exactly one response body: decode → validate → compute → encode.
///
/// Immutable and `Sendable`: the worker runs it for many requests at once. It never throws and never traps on
/// input; every failure becomes a v1 error response echoing the request id when one could be read.
public struct RequestDispatcher: Sendable {
    let entries: [String: MethodRegistry.Entry]
    /// The limits enforced on every request.
    public let limits: RequestLimits

    /// A decoder per service the methods are registered on, built once rather than per request.
    private let decodersByService: [String: TallyJSONDecoder]

    init(entries: [String: MethodRegistry.Entry], limits: RequestLimits) {
        self.entries = entries
        self.limits = limits
        var decoders: [String: TallyJSONDecoder] = [:]
        for service in Set(entries.values.map(\.service.rawValue)) {
            decoders[service] = Self.makeDecoder(for: service, entries: entries)
        }
        decodersByService = decoders
    }

    /// Every registered method, sorted.
    public var methodNames: [String] { entries.keys.sorted() }

    /// The methods answered on `service`, sorted.
    public func methods(of service: String) -> [String] {
        Self.methods(of: service, in: entries)
    }

    private static func methods(of service: String, in entries: [String: MethodRegistry.Entry]) -> [String] {
        entries.filter { $0.value.service.rawValue == service || $0.value.service == .system }.keys.sorted()
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
        let request: IncomingRequest
        do {
            request = try decoder(for: service).decode(IncomingRequest.self, from: body)
        } catch let failure as RequestFailure {
            return .failure(id: failure.id, failure.error, method: failure.method)
        } catch {
            // Only syntax errors reach here: everything after the first brace is wrapped in RequestFailure.
            guard Self.isUTF8Text(body) else {
                return .failure(id: nil, TallyError(.malformedJSON, "the body is not UTF-8 JSON text"))
            }
            guard let error = error as? JSONDecodingError else {
                return .failure(id: nil, TallyError(.malformedJSON, "the body is not valid JSON"))
            }
            return .failure(id: nil, TallyError(decoding: error))
        }
        if let deadline = request.head.deadline, deadline.instant <= now {
            return .failure(id: request.head.id, Self.expired(deadline), method: request.head.method)
        }
        let context = RequestContext(
            head: request.head, service: service, connection: connection, receivedAt: now, limits: limits,
            logger: logger)
        // The method exists: the params decoder found it.
        var response = entries[request.head.method]!.respond(request.params, context)
        response.computed = true
        if let deadline = request.head.deadline, deadline.instant <= Date() {
            var late = ResponseBody.failure(id: request.head.id, Self.expired(deadline), method: request.head.method)
            late.computed = true
            return late
        }
        return response
    }

    /// Whether `body` is UTF-8 without NUL bytes, as the spec requires. Asked only once a body has failed to
    /// parse, to say which of the two it is: the parser refuses a NUL byte and invalid UTF-8 anywhere in a
    /// document, so every body it accepts is UTF-8 text already, and a pass before parsing (3% of a 600 KB
    /// request's time) checked it twice.
    ///
    /// Most bodies are all ASCII, which is valid UTF-8: one pass tests eight bytes at a time for a zero byte and
    /// for a high bit, and only a body with non-ASCII bytes is then validated in full (in place, by `UTF8Span`).
    static func isUTF8Text(_ body: [UInt8]) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let scan: (hasZero: Bool, isASCII: Bool) = body.withUnsafeBytes { raw in
            var highBitsSeen: UInt64 = 0
            var position = 0
            while raw.count - position >= 8 {
                let word = raw.loadUnaligned(fromByteOffset: position, as: UInt64.self)
                // Some byte of `word` is zero exactly when this is non-zero (the classic "has zero byte" test).
                if (word &- ones) & ~word & highBits != 0 { return (true, false) }
                highBitsSeen |= word
                position += 8
            }
            while position < raw.count {
                if raw[position] == 0 { return (true, false) }
                highBitsSeen |= UInt64(raw[position])
                position += 1
            }
            return (false, highBitsSeen & highBits == 0)
        }
        if scan.hasZero { return false }
        return scan.isASCII || (try? UTF8Span(validating: body.span)) != nil
    }

    private static func expired(_ deadline: Timestamp) -> TallyError {
        TallyError(.deadlineExceeded, "the deadline \(deadline) passed before the request could be answered")
    }

    private func decoder(for service: String) -> TallyJSONDecoder {
        decodersByService[service] ?? Self.makeDecoder(for: service, entries: entries)
    }

    /// A decoder whose params decoding knows the methods of `service`.
    private static func makeDecoder(for service: String, entries: [String: MethodRegistry.Entry]) -> TallyJSONDecoder {
        var decoder = TallyJSON.decoder()
        let known = methods(of: service, in: entries)
        let decodeParams: IncomingRequest.ParamsDecoding = { method, paramsDecoder in
            guard let entry = entries[method], entry.service.rawValue == service || entry.service == .system else {
                throw TallyError(
                    .unknownMethod, "\(service) has no method '\(method.prefix(100))'",
                    details: ErrorDetails(field: "method", methods: known, service: service))
            }
            return try entry.decodeParams(paramsDecoder)
        }
        decoder.userInfo[.paramsDecoding] = decodeParams
        return decoder
    }
}
