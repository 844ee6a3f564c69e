import TallyJSONCoding

/// The error object of a v1 response: `{code, message, details}`.
///
/// `message` is for people and may change; `code` and `details` are for programs and stay stable within v1.
public struct TallyError: Error, Codable, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, for programs: stable within v1. An open set: treat a code you do not know like `internal`.
    public var code: ErrorCode
    /// What went wrong, for people: it may change between releases, so programs read `code` and `details` instead.
    public var message: String
    /// The facts a program can act on (the field, the limit, …); which are present depends on `code`. `nil` when
    /// there are none.
    public var details: ErrorDetails?

    /// An error of `code`, worded `message`, with the facts of `details` when there are any.
    public init(_ code: ErrorCode, _ message: String, details: ErrorDetails? = nil) {
        self.code = code
        self.message = message
        self.details = details
    }

    public var description: String { "\(code): \(message)" }
}

/// Machine-readable facts about an error; which ones are present depends on the code.
public struct ErrorDetails: Codable, Hashable, Sendable {
    /// The offending field (`invalid_params`, `invalid_request`, `payload_too_large`, `pro_required`).
    public var field: String?
    /// What is wrong with it, in words.
    public var problem: String?
    /// The other place of a conflict, e.g. the first of two records with one date.
    public var conflictsWith: String?
    /// The offending value as the request wrote it, where a program can act on it without parsing `problem`: the
    /// date two records share, the id two workouts share, the workout id that no workout has.
    public var value: String?
    /// Versions served (`unsupported_version`).
    public var supportedVersions: [Int]?
    /// The limit that was exceeded (`payload_too_large`).
    public var limit: Int?
    /// Methods of the service (`unknown_method`).
    public var methods: [String]?
    /// The MDP service the request was sent to.
    public var service: String?
    /// When retrying could help (`overloaded`, `unavailable`), after how long.
    public var retryAfterMilliseconds: Int?

    /// The facts given; each one left out is `nil`, and is not written.
    public init(
        field: String? = nil,
        problem: String? = nil,
        conflictsWith: String? = nil,
        value: String? = nil,
        supportedVersions: [Int]? = nil,
        limit: Int? = nil,
        methods: [String]? = nil,
        service: String? = nil,
        retryAfterMilliseconds: Int? = nil
    ) {
        self.field = field
        self.problem = problem
        self.conflictsWith = conflictsWith
        self.value = value
        self.supportedVersions = supportedVersions
        self.limit = limit
        self.methods = methods
        self.service = service
        self.retryAfterMilliseconds = retryAfterMilliseconds
    }

    enum CodingKeys: String, CodingKey {
        case field, problem, value, limit, methods, service
        case conflictsWith = "conflicts_with"
        case supportedVersions = "supported_versions"
        case retryAfterMilliseconds = "retry_after_ms"
    }
}

extension TallyError {
    /// `invalid_params` naming `field`; for conflicts the other place too, and the offending `value` where a
    /// program needs it (a duplicated date or id) rather than leaving it inside the words of `problem`.
    public static func invalidParams(
        _ field: FieldPath, _ problem: String, conflictsWith: FieldPath? = nil, value: String? = nil
    ) -> TallyError {
        let where_ = conflictsWith.map { " (conflicts with \($0))" } ?? ""
        return TallyError(
            .invalidParams, "\(field): \(problem)\(where_)",
            details: ErrorDetails(
                field: field.description, problem: problem, conflictsWith: conflictsWith?.description, value: value))
    }

    /// `invalid_request` naming an envelope field.
    public static func invalidRequest(_ field: FieldPath, _ problem: String) -> TallyError {
        TallyError(
            .invalidRequest, "\(field): \(problem)", details: ErrorDetails(field: field.description, problem: problem))
    }

    /// `payload_too_large` for a list (or the body) over its configured limit.
    public static func payloadTooLarge(_ field: FieldPath, count: Int, limit: Int, unit: String) -> TallyError {
        TallyError(
            .payloadTooLarge, "\(field) has \(count) \(unit); the limit is \(limit)",
            details: ErrorDetails(field: field.description, problem: "more than \(limit) \(unit)", limit: limit))
    }

    /// `pro_required` for a feature behind the Pro subscription.
    public static func proRequired(_ field: FieldPath, _ feature: String) -> TallyError {
        TallyError(
            .proRequired, "\(feature) needs a Pro subscription",
            details: ErrorDetails(field: field.description, problem: "\(feature) needs is_pro: true"))
    }
}
