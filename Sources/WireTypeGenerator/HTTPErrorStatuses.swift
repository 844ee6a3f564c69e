import Foundation
import TallyJSONCoding

/// The HTTP statuses tally-gateway answers v1 error codes with, as its OpenAPI document lists them: read from
/// Protocol/http/error-statuses.json.
///
/// The gateway's own table (`TallyGateway`'s `ErrorStatus`) decides what it answers; this is the document's
/// wording of it, and `GatewayDocumentTests` checks, code by code, that both say the same.
struct HTTPErrorStatus: Decodable {
    let status: Int
    let codes: [String]
    let description: String

    private struct File: Decodable {
        let statuses: [HTTPErrorStatus]
    }

    /// The statuses of the file at `path`, in its order.
    /// - Throws: for a file that cannot be read, or one in which a code has two statuses.
    static func all(in path: URL) throws -> [HTTPErrorStatus] {
        let statuses = try TallyJSONDecoder().decode(File.self, from: [UInt8](Data(contentsOf: path))).statuses
        let codes = statuses.flatMap(\.codes)
        guard Set(codes).count == codes.count else { throw GeneratorError("\(path.path): a code has two statuses") }
        return statuses
    }
}
