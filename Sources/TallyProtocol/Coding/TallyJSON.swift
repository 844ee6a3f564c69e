import Foundation
import TallyJSONCoding

/// The JSON coders every Tally component uses, configured once: keys are spelled out by each type's
/// `CodingKeys` (snake_case on the wire), and non-finite numbers are refused rather than invented.
///
/// Both are Tally's own byte codec (`TallyJSONCoding`), not Foundation's, whose `JSONDecoder` builds a tree of
/// values and strings for a whole request before a member is read (Benchmarks/README.md compares them). The decoder's
/// errors (`JSONDecodingError`) name the field in Tally's
/// words, which `TallyError(decoding:)` passes on as `details.field` and `details.problem`.
package enum TallyJSON {
    /// A new encoder for request bodies and error responses: compact, slashes unescaped, `nil` members left out.
    package static func encoder() -> TallyJSONEncoder {
        TallyJSONEncoder()
    }

    /// A new encoder for a result: every member written, `null` where there is nothing (v1's results show each
    /// member they declare; the few that leave some out say so in their own `encode(to:)`).
    package static func resultEncoder() -> TallyJSONEncoder {
        var encoder = TallyJSONEncoder()
        encoder.nilMembers = .null
        return encoder
    }

    /// A new decoder for request or response bodies.
    package static func decoder() -> TallyJSONDecoder {
        TallyJSONDecoder()
    }
}
