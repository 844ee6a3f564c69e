import TallyJSONCoding
import TallyProtocol

/// A v1 reply as the gateway answers it: where its id is, and its result's bytes or its error.
///
/// The result is passed on as the worker wrote it, byte for byte, and never decoded: the gateway's cost per call
/// must not grow with the result. An error is small and decoded, for its status and `Retry-After`.
struct ReplyParts {
    enum Outcome {
        case result(Range<Int>)
        case error(TallyError, Range<Int>)
    }

    /// The contents of the reply's `id` string, when it has one.
    let id: Range<Int>?
    let outcome: Outcome

    /// - Returns: `nil` for a reply that is not a v1 response (no object, neither `result` nor `error`, an error
    ///   that is not one).
    init?(_ reply: [UInt8]) {
        guard let members = TopLevelMembers(reply) else { return nil }
        id = members.first("id", in: reply).flatMap { TopLevelMembers.stringContents($0.value, in: reply) }
        if let result = members.first("result", in: reply) {
            outcome = .result(result.value)
        } else if let error = members.first("error", in: reply),
            let decoded = try? TallyJSONDecoder().decode(TallyError.self, from: Array(reply[error.value]))
        {
            outcome = .error(decoded, error.value)
        } else {
            return nil
        }
    }
}
