/// The HTTP statuses tally-gateway answers v1 error codes with, as its OpenAPI document lists them.
///
/// The gateway's own table (`TallyGateway`'s `ErrorStatus`) decides what it answers; this is the document's
/// wording of it, and `GatewayDocumentTests` checks, code by code, that both say the same.
enum HTTPErrorStatuses {
    struct Status {
        let code: Int
        let errorCodes: [String]
        let description: String
    }

    static let all: [Status] = [
        Status(
            code: 400, errorCodes: ["invalid_params", "invalid_request", "malformed_json", "unsupported_version"],
            description: "The request is wrong: params that break the method's rules (details.field names the "
                + "place), an envelope or header that is not v1's, a body that is not JSON."),
        Status(
            code: 401, errorCodes: ["unauthorized"],
            description: "API keys are on and the request has no `Authorization: Bearer` key the gateway knows "
                + "(a code of the gateway's own; the request reached no broker)."),
        Status(
            code: 403, errorCodes: ["pro_required"],
            description: "A Pro-only feature was asked for with `is_pro: false`."),
        Status(
            code: 404, errorCodes: ["unknown_method"],
            description: "No such method: details.methods lists the ones there are."),
        Status(
            code: 413, errorCodes: ["payload_too_large"],
            description: "The body is over the gateway's limit (refused before it is read whole), or a list is "
                + "over the worker's element limit; details.limit says the limit."),
        Status(
            code: 429, errorCodes: ["overloaded"],
            description: "The broker's queue for the service is full: come back after `Retry-After` "
                + "(details.retry_after_ms, rounded up to whole seconds)."),
        Status(
            code: 500, errorCodes: ["internal"],
            description: "A fault inside Tally; not worth retrying. Codes this document does not know are "
                + "answered so too."),
        Status(
            code: 503, errorCodes: ["unavailable"],
            description: "No worker answered: none registered with any broker, or every attempt lost its worker."),
        Status(
            code: 504, errorCodes: ["deadline_exceeded"],
            description: "The deadline (`Request-Timeout`, the envelope's `deadline`, or the gateway's default) "
                + "passed before an answer came."),
    ]
}
