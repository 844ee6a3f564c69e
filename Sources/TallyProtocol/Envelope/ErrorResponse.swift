import Foundation
import TallyJSONCoding

/// Encodes error responses. Shared by the worker (bad requests) and the broker (requests it cannot deliver), so
/// that a client sees one error format whoever answered.
public enum ErrorResponse {
    /// The JSON bytes of `{"version":1,"id":…,"error":{…}}`.
    public static func encode(id: String?, _ error: TallyError) -> [UInt8] {
        let envelope = ResponseEnvelope<NoResult>(id: id, outcome: .failure(error))
        // An error envelope holds only strings and integers, which always encode; the literal is a last resort.
        guard let bytes = try? TallyJSON.encoder().encodeToBytes(envelope) else {
            return Array(
                #"{"version":1,"id":null,"error":{"code":"internal","message":"error could not be encoded"}}"#.utf8)
        }
        return bytes
    }
}
