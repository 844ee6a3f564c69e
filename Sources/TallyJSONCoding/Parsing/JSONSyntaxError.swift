/// Why a document is not RFC 8259 JSON, and where: the decoder reports it as `JSONDecodingError`'s `.notJSON`.
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Byte offset of the first byte that cannot be accepted.
    public let offset: Int
    /// What is wrong, e.g. "a number must not have leading zeros".
    public let reason: String

    /// The error of `reason` at byte `offset`.
    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "\(reason) at byte \(offset)" }
}
