import Foundation
import TallyJSONCoding

/// The envelope of a request, without its params: what every request carries whatever its method.
///
/// ```json
/// {"version": 1, "id": "r-42", "method": "history.month", "params": {…},
///  "deadline": "2026-11-23T10:00:02Z", "trace": {"traceparent": "00-…-01"}}
/// ```
public struct RequestHead: Sendable, Hashable {
    /// Protocol version; 1.
    public var version: Int
    /// The caller's request id, echoed in the response: 1...128 characters.
    public var id: String
    /// `area.name`, e.g. `history.month`.
    public var method: String
    /// The instant after which the answer is useless: an expired request is answered with `deadline_exceeded`
    /// and never computed.
    public var deadline: Timestamp?
    /// W3C trace context: its ids go on every log line about the request, and spans made for it are children of
    /// its `traceparent`. Valid by W3C Trace Context Level 1 once decoded (`TraceContext.validated()`).
    public var trace: TraceContext?

    /// The envelope of a request for `method` with the caller's `id`: in this build's protocol version unless
    /// `version` says otherwise, with no deadline and no trace unless given.
    public init(
        version: Int = ProtocolVersion.current, id: String, method: String, deadline: Timestamp? = nil,
        trace: TraceContext? = nil
    ) {
        self.version = version
        self.id = id
        self.method = method
        self.deadline = deadline
        self.trace = trace
    }

    /// Longest accepted request id.
    public static let maximumIDLength = 128

    /// The members of a request; `params` is read by the worker, once the method says what type they have.
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case version, id, method, params, deadline, trace
    }
}

/// W3C Trace Context (`traceparent`, optional `tracestate`).
public struct TraceContext: Codable, Sendable, Hashable {
    /// The caller's position in its trace, `VERSION-TRACE_ID-PARENT_ID-FLAGS` in lowercase hex
    /// (`00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01`): the trace-id and the caller's span id.
    public var traceparent: String
    /// The vendors' state that travels with the trace (`key=value` list-members); `nil` when the caller has none.
    public var tracestate: String?

    /// A context of the caller's `traceparent` and, when it has one, `tracestate`, as given: `validated()` checks
    /// them by W3C's rules, and so does the worker that reads them.
    public init(traceparent: String, tracestate: String? = nil) {
        self.traceparent = traceparent
        self.tracestate = tracestate
    }
}

extension RequestHead: Decodable {
    /// Reads the envelope of a request (every member but `params`), in the order that decides which error a bad
    /// request gets: version first (a v2 request gets `unsupported_version`, not a complaint about its shape), then
    /// id, then method, deadline and trace.
    /// - Throws: `RequestFailure` (`invalid_request` or `unsupported_version`), with the request's id when it could
    ///   be read.
    public init(from decoder: any Decoder) throws {
        let container: KeyedDecodingContainer<CodingKeys>
        do {
            container = try decoder.container(keyedBy: CodingKeys.self)
        } catch {
            throw RequestFailure(id: nil, error: TallyError(.invalidRequest, "the request must be a JSON object"))
        }
        do {
            try self.init(from: container)
        } catch {
            throw RequestFailure(id: Self.bestEffortID(container), error: error)
        }
    }

    private init(from container: KeyedDecodingContainer<CodingKeys>) throws(TallyError) {
        func field<T: Decodable>(_ key: CodingKeys, _ type: T.Type) throws(TallyError) -> T? {
            do {
                return try container.decodeIfPresent(type, forKey: key)
            } catch {
                let refusal =
                    (error as? JSONDecodingError) ?? (error as? DecodingError).map(JSONDecodingError.init)
                    ?? JSONDecodingError(at: FieldPath([.key(key.rawValue)]), .invalid("cannot be read"))
                throw .invalidRequest(refusal.path, refusal.problem.description)
            }
        }
        guard let version = try field(.version, Int.self) else {
            throw .invalidRequest("version", "is required (this server speaks version \(ProtocolVersion.current))")
        }
        guard ProtocolVersion.supported.contains(version) else {
            throw TallyError(
                .unsupportedVersion,
                "version \(version) is not served here; supported: \(ProtocolVersion.supported.map(String.init).joined(separator: ", "))",
                details: ErrorDetails(field: "version", supportedVersions: ProtocolVersion.supported))
        }
        guard let id = try field(.id, String.self) else { throw .invalidRequest("id", "is required") }
        guard !id.isEmpty, id.count <= Self.maximumIDLength else {
            throw .invalidRequest("id", "must be 1...\(Self.maximumIDLength) characters")
        }
        self.version = version
        self.id = id
        guard let method = try field(.method, String.self) else {
            throw .invalidRequest("method", "is required")
        }
        self.method = method
        self.deadline = try field(.deadline, Timestamp.self)
        self.trace = try field(.trace, TraceContext.self)
        do {
            try trace?.validated()
        } catch {
            throw .invalidRequest(FieldPath([.key("trace"), .key(error.member)]), error.problem)
        }
    }

    /// The request's id for the error response of a request whose envelope is wrong, if it can be read at all.
    private static func bestEffortID(_ container: KeyedDecodingContainer<CodingKeys>) -> String? {
        guard let id = try? container.decodeIfPresent(String.self, forKey: .id),
            !id.isEmpty, id.count <= maximumIDLength
        else { return nil }
        return id
    }
}

extension RequestHead: JSONFastDecodable {
    static let fastKeys = JSONKeySet<CodingKeys>()

    /// The envelope of a plain, valid request (a supported version, an id of 1...128 characters, a method, a plain
    /// deadline or none, no trace) read straight off the tape: every request's first step, so worth a fifth of a
    /// `system.ping`. Anything else is `nil`, and `init(from:)` reads it and words what is wrong.
    @usableFromInline package init?(fastFrom object: borrowing JSONObjectReader) {
        let keys = Self.fastKeys
        var version: Int?
        var id: String?
        var method: String?
        var deadline: Timestamp?? = .some(nil)
        for member in object.members {
            switch member.key(in: keys) {
            case .version: version = member.int
            case .id: id = member.string
            case .method: method = member.string
            case .deadline: deadline = member.utf8 { try? Timestamp(utf8: $0) }.map { .some($0) }
            // A trace is checked by W3C's rules on the standard path.
            case .trace: return nil
            case .params, nil: continue
            }
        }
        guard let version, ProtocolVersion.supported.contains(version), let id, !id.isEmpty,
            id.count <= Self.maximumIDLength, let method, let deadline
        else { return nil }
        self.init(version: version, id: id, method: method, deadline: deadline)
    }
}
