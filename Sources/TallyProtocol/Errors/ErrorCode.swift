/// A stable, machine-readable error code. An open set: a client `switch` over codes needs a `default`,
/// so adding a code in a later v1 release breaks no client.
public struct ErrorCode: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// The request's `version` is not served here; `details.supported_versions` lists what is.
    public static let unsupportedVersion = Self(rawValue: "unsupported_version")
    /// The body is not JSON (or not UTF-8).
    public static let malformedJSON = Self(rawValue: "malformed_json")
    /// The envelope is wrong: not an object, or `id`/`method`/`version`/`deadline` missing or mistyped.
    public static let invalidRequest = Self(rawValue: "invalid_request")
    /// No such method on this service; `details.methods` lists the ones that exist.
    public static let unknownMethod = Self(rawValue: "unknown_method")
    /// A parameter is missing, mistyped or out of range; `details.field` names it.
    public static let invalidParams = Self(rawValue: "invalid_params")
    /// The body or a list in it is larger than the configured limit; `details.limit` says how large.
    public static let payloadTooLarge = Self(rawValue: "payload_too_large")
    /// The feature needs a Pro subscription (`is_pro: true`).
    public static let proRequired = Self(rawValue: "pro_required")
    /// The request's deadline passed before it could be answered; it was not computed.
    public static let deadlineExceeded = Self(rawValue: "deadline_exceeded")
    /// The broker's queue for the service is full; retry later.
    public static let overloaded = Self(rawValue: "overloaded")
    /// No worker could answer: none registered in time, or every attempt lost its worker.
    public static let unavailable = Self(rawValue: "unavailable")
    /// A fault inside Tally; the request was valid as far as Tally knows.
    public static let `internal` = Self(rawValue: "internal")
    /// Returned only by the client library: no reply arrived within the client's timeout.
    public static let timeout = Self(rawValue: "timeout")
}
