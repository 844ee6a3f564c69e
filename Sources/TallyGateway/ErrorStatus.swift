import HTTPTypes
import TallyProtocol

/// The HTTP status of each v1 error code, so that HTTP clients, proxies and dashboards read a failure as HTTP says
/// it while the body stays the v1 error (code, message, details) as Tally wrote it.
///
/// The OpenAPI document words the same table (`HTTPErrorStatuses` in WireTypeGenerator); `GatewayDocumentTests`
/// checks that both agree, code by code.
package enum ErrorStatus {
    package static let table: [ErrorCode: HTTPResponse.Status] = [
        .invalidParams: .badRequest,
        .invalidRequest: .badRequest,
        .malformedJSON: .badRequest,
        .unsupportedVersion: .badRequest,
        .unauthorized: .unauthorized,
        .proRequired: .forbidden,
        .unknownMethod: .notFound,
        .notFound: .notFound,
        .methodNotAllowed: .methodNotAllowed,
        .payloadTooLarge: .contentTooLarge,
        .overloaded: .tooManyRequests,
        .internal: .internalServerError,
        .unavailable: .serviceUnavailable,
        .deadlineExceeded: .gatewayTimeout,
    ]

    /// The status of `code`; a code this build does not know is answered as `internal` is, as the protocol asks
    /// clients to treat one.
    package static func status(of code: ErrorCode) -> HTTPResponse.Status {
        table[code] ?? .internalServerError
    }

    /// `Retry-After` in whole seconds (RFC 9110 §10.2.3): `retry_after_ms` rounded up, so that a client that waits
    /// as told never comes back sooner than the broker asked.
    package static func retryAfter(milliseconds: Int) -> String {
        String((max(0, milliseconds) + 999) / 1000)
    }
}
