import Foundation
import Logging
import TallyProtocol

/// An encoded response, ready to be the body frame of an MDP reply.
public struct ResponseBody: Sendable, Hashable {
    public var bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// Encodes `envelope`; if encoding fails (a handler produced a value JSON cannot carry) the caller gets
    /// `internal` rather than silence.
    static func encode<R: Codable & Sendable>(_ envelope: ResponseEnvelope<R>, context: RequestContext?) -> ResponseBody {
        do {
            return ResponseBody(bytes: Array(try TallyJSON.encoder().encode(envelope)))
        } catch {
            context?.logger.error("response could not be encoded", metadata: ["error": "\(error)"])
            return failure(id: envelope.id, TallyError(.internal, "the response could not be encoded"))
        }
    }

    /// An error response.
    public static func failure(id: String?, _ error: TallyError) -> ResponseBody {
        ResponseBody(bytes: ErrorResponse.encode(id: id, error))
    }
}
