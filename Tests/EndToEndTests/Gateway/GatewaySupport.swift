import Foundation
import TallyClient
import TallyJSONCoding
import TallyTesting

/// A cluster (a broker and workers), a gateway calling it and a client calling it directly: what the gateway's
/// end-to-end tests compare.
struct GatewayCluster {
    let cluster: TallyCluster
    let gateway: GatewayProcess
    let client: TallyClient

    /// Runs `body` with a started cluster of `workers` workers and a gateway in front of it; stops them afterwards.
    static func with<Result>(
        workers: Int = 2, brokerArguments: [String] = [], workerArguments: [String] = [],
        gatewayArguments: [String] = [], _ body: (GatewayCluster) async throws -> Result
    ) async throws -> Result {
        try await withCluster(workers: workers, brokerArguments: brokerArguments, workerArguments: workerArguments) {
            cluster in
            let gateway = try await GatewayProcess.start(brokers: [cluster.endpoint], arguments: gatewayArguments)
            let client = try makeClient([cluster.endpoint], retries: 0)
            try await expectServicesAvailable(client)
            let result = try await body(GatewayCluster(cluster: cluster, gateway: gateway, client: client))
            await client.stop()
            gateway.process.terminate()
            _ = await gateway.process.waitForExit()
            return result
        }
    }
}

/// Waits for every service to have a worker, failing the test otherwise.
func expectServicesAvailable(_ client: TallyClient) async throws {
    guard await waitForServices(client) else { throw ProcessError("the services never became available") }
}

/// The statuses the gateway answers each v1 code with, as issue #45 and docs/gateway.md list them.
let expectedStatus: [String: Int] = [
    "invalid_params": 400, "invalid_request": 400, "malformed_json": 400, "unsupported_version": 400,
    "unknown_method": 404, "payload_too_large": 413, "pro_required": 403, "overloaded": 429, "unavailable": 503,
    "deadline_exceeded": 504, "internal": 500, "unauthorized": 401,
]

extension HTTPTestConnection {
    /// `POST path` on a thread of its own.
    func post(_ path: String, _ body: [UInt8], headers: [(String, String)] = []) async throws -> Response {
        try await onOwnThread {
            try self.request("POST", path, headers: [("Content-Type", "application/json")] + headers, body: body)
        }
    }

    func get(_ path: String) async throws -> Response {
        try await onOwnThread { try self.request("GET", path) }
    }
}

extension HTTPTestConnection.Response {
    /// The body as a JSON value.
    var value: JSONValue {
        get throws { try TallyJSONDecoder().decode(JSONValue.self, from: body) }
    }
}

extension JSONValue {
    /// `self` with `"$any"` wherever `pattern` has it: a reply made comparable, value for value, with another reply
    /// to the same example (whose `uptime_seconds` or `worker` differ).
    func masked(by pattern: JSONValue?) -> JSONValue {
        guard let pattern else { return self }
        switch (self, pattern) {
        case (_, .string("$any")): return .string("$any")
        case (.array(let values), .array(let patterns)) where values.count == patterns.count:
            return .array(zip(values, patterns).map { $0.masked(by: $1) })
        case (.object(let object), .object):
            return .object(JSONObject(members: object.members.map { ($0.key, $0.value.masked(by: pattern[$0.key])) }))
        default: return self
        }
    }

    /// The object's members but `names`.
    func without(_ names: Set<String>) -> JSONValue {
        guard case .object(let object) = self else { return self }
        return .object(JSONObject(members: object.members.filter { !names.contains($0.key) }))
    }
}
