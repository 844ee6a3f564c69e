import TallyJSONCoding

/// Size limits a worker enforces on every request, configurable per deployment.
///
/// They bound the work and memory one request can cost, so that a hostile or buggy client cannot starve the
/// others: an oversized request gets `payload_too_large` naming the list and the limit.
public struct RequestLimits: Sendable, Hashable {
    /// Largest request body in bytes.
    public var maxBodyBytes: Int
    /// Most elements in any one list of a request (records, samples, goal changes, workouts…).
    public var maxListElements: Int

    /// Limits of `maxBodyBytes` and `maxListElements`; by default those of the protocol's documents: a body of
    /// 1 MiB, lists of 20,000 elements.
    public init(maxBodyBytes: Int = 1 << 20, maxListElements: Int = 20_000) {
        self.maxBodyBytes = maxBodyBytes
        self.maxListElements = maxListElements
    }

    /// Checks a list's length.
    public func check(_ count: Int, at field: FieldPath, unit: String = "elements") throws(TallyError) {
        if count > maxListElements { throw .payloadTooLarge(field, count: count, limit: maxListElements, unit: unit) }
    }
}
