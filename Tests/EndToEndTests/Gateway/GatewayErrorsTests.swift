import Foundation
import Logging
import Majordomo
import TallyJSONCoding
import TallyTesting
import Testing
import ZeroMQ

/// Every v1 error code through the gateway: under its HTTP status (400, 403, 404, 413, 429 with `Retry-After`,
/// 500, 503, 504), with its v1 body, as the broker or the worker wrote it when one of them answered.
@Suite(.realProcesses) struct GatewayErrorsTests {
    /// Checks the status, the v1 body's shape and code; returns the body.
    @discardableResult
    static func expectError(
        _ response: HTTPTestConnection.Response, _ code: String, field: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> JSONValue {
        #expect(response.status == expectedStatus[code], "\(response.text)", sourceLocation: sourceLocation)
        let body = try response.value
        #expect(body["version"] == .number(1), "\(response.text)", sourceLocation: sourceLocation)
        #expect(body["id"] != nil, "a v1 error response has an id (null when unread)", sourceLocation: sourceLocation)
        #expect(body["error"]?["code"] == .string(code), "\(response.text)", sourceLocation: sourceLocation)
        #expect(body["error"]?["message"]?.string?.isEmpty == false, sourceLocation: sourceLocation)
        if let field {
            #expect(
                body["error"]?["details"]?["field"] == .string(field), "\(response.text)",
                sourceLocation: sourceLocation)
        }
        return body
    }

    @Test func requestErrorsAreFourHundredsWithTheirV1Body() async throws {
        try await GatewayCluster.with(
            workerArguments: ["--max-list-elements", "3"],
            gatewayArguments: ["--max-body-bytes", "4096", "--retries", "0"]
        ) { setup in
            let connection = try setup.gateway.connect()
            let berlin = #""time_zone":"Europe/Berlin","today":"2026-11-23""#
            let goals = #""goal_log":[{"effective_date":"2026-01-01","goal":8000}]"#

            // invalid_params, from the worker: a required param left out.
            try Self.expectError(
                try await connection.post("/v1/streak.summary", Array("{\(berlin)}".utf8)), "invalid_params",
                field: "params.goal_log")
            // pro_required, from the worker.
            try Self.expectError(
                try await connection.post(
                    "/v1/history.dashboard", Array(#"{\#(berlin),\#(goals),"mode":"weekly","is_pro":false}"#.utf8)),
                "pro_required")
            // payload_too_large from the worker: a list over its element limit.
            let records = (20...23).map { #"{"date":"2026-11-\#($0)","steps":9000}"# }.joined(separator: ",")
            try Self.expectError(
                try await connection.post(
                    "/v1/streak.summary", Array(#"{\#(berlin),\#(goals),"records":[\#(records)]}"#.utf8)),
                "payload_too_large", field: "params.records")
            // The gateway's own: a body that is not JSON, an envelope without an id (id null, as the worker says),
            // a version not served, trace and timeout headers that are not theirs to be.
            try Self.expectError(try await connection.post("/v1/system.ping", Array("{".utf8)), "malformed_json")
            let notJSON = try Self.expectError(try await connection.post("/v1", Array("nope".utf8)), "malformed_json")
            #expect(notJSON["id"] == .null)
            let noID = try Self.expectError(
                try await connection.post("/v1", Array(#"{"version":1,"method":"system.ping"}"#.utf8)),
                "invalid_request",
                field: "id")
            #expect(noID["id"] == .null)
            let v2 = try Self.expectError(
                try await connection.post("/v1", Array(#"{"version":2,"id":"v2","method":"system.ping"}"#.utf8)),
                "unsupported_version", field: "version")
            #expect(v2["id"] == .string("v2"))
            #expect(v2["error"]?["details"]?["supported_versions"] == .array([.number(1)]))
            try Self.expectError(
                try await connection.post(
                    "/v1/system.ping", [],
                    headers: [("traceparent", "00-\(String(repeating: "0", count: 32))-00f067aa0ba902b7-01")]),
                "invalid_request", field: "trace.traceparent")
            try Self.expectError(
                try await connection.post("/v1/system.ping", [], headers: [("Request-Timeout", "soon")]),
                "invalid_request", field: "deadline")
            // A Tally-Service header that names no service, or another one than a domain method's own.
            try Self.expectError(
                try await connection.post("/v1/system.ping", [], headers: [("Tally-Service", "tally.nope")]),
                "invalid_request", field: "service")
            try Self.expectError(
                try await connection.post(
                    "/v1", Array(#"{"version":1,"id":"s","method":"streak.summary"}"#.utf8),
                    headers: [("Tally-Service", "tally.history")]),
                "invalid_request", field: "service")
            // unknown_method: a path of no method (the gateway's own), an envelope's method of a known area (the
            // worker's, naming its service).
            let path = try Self.expectError(
                try await connection.post("/v1/history.nope", Array("{}".utf8)), "unknown_method")
            #expect(path["error"]?["details"]?["methods"]?.elements?.contains(.string("history.month")) == true)
            let envelope = try Self.expectError(
                try await connection.post("/v1", Array(#"{"version":1,"id":"u-1","method":"workout.teleport"}"#.utf8)),
                "unknown_method")
            #expect(envelope["id"] == .string("u-1"))
            #expect(envelope["error"]?["details"]?["service"] == .string("tally.workout"))

            // The gateway's limit: refused by its Content-Length alone, the body never sent, the connection closed.
            let large = try setup.gateway.connect()
            let refused = try await onOwnThread { () throws -> HTTPTestConnection.Response in
                try large.write(Array("POST /v1/system.ping HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n".utf8))
                return try large.readResponse()
            }
            let limit = try Self.expectError(refused, "payload_too_large", field: "body")
            #expect(limit["error"]?["details"]?["limit"] == .number(4096))
            #expect(refused.headers["connection"] == "close")
            #expect(try await onOwnThread { large.isClosedByServer() }, "the rest of the body is not read")
            // Sent in chunks, refused once what came is over the limit.
            let chunked = try setup.gateway.connect()
            let chunk = String(repeating: " ", count: 3000)
            let refusedChunks = try await onOwnThread { () throws -> HTTPTestConnection.Response in
                let head = "POST /v1/system.ping HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                let chunkText = String(chunk.utf8.count, radix: 16) + "\r\n" + chunk + "\r\n"
                try chunked.write(Array((head + chunkText + chunkText).utf8))
                return try chunked.readResponse()
            }
            try Self.expectError(refusedChunks, "payload_too_large", field: "body")

            // Paths and methods that are not routes.
            let missing = try await onOwnThread { try connection.request("GET", "/metrics") }
            let missingBody = try missing.value
            #expect(missing.status == 404 && missingBody["error"]?["code"] == .string("not_found"), "\(missing.text)")
            let wrongMethod = try await onOwnThread { try connection.request("GET", "/v1/system.ping") }
            #expect(wrongMethod.status == 405 && wrongMethod.headers["allow"] == "POST", "\(wrongMethod.text)")
            let head = try await onOwnThread { try connection.request("HEAD", "/openapi.json") }
            #expect(head.status == 200)
            // The connection kept through every answer that read its body.
            let ping = try await connection.post("/v1/system.ping", [])
            #expect(ping.status == 200, "\(ping.text)")
        }
    }
}
