import Foundation
import TallyClient
import TallyJSONCoding
import TallyProtocol
import TallyTesting
import Testing

/// Every Protocol example through the gateway gives what it gives through TallyClient: the whole envelope on
/// `POST /v1`, and the params alone on `POST /v1/{method}` (its result alone, or its v1 error under the code's
/// HTTP status).
@Suite(.realProcesses) struct GatewayMethodsTests {
    static let examples: [ProtocolExample] = (try? ProtocolExample.all()) ?? []

    /// The members of an example's request that `POST /v1/{method}` says with its path and body.
    static let plainMembers: Set<String> = ["version", "id", "method", "params"]

    /// The `params` of an example's request as JSON text (nothing when it has none).
    static func paramsText(of example: ProtocolExample) throws -> [UInt8] {
        let request = try JSONSerialization.jsonObject(with: Data(example.requestBody)) as? [String: Any]
        guard let params = request?["params"] else { return [] }
        return Array(try JSONSerialization.data(withJSONObject: params, options: [.fragmentsAllowed]))
    }

    @Test func everyExampleAnswersThroughTheGatewayAsThroughTallyClient() async throws {
        #expect(Self.examples.count >= 30)
        try await GatewayCluster.with { setup in
            let connection = try setup.gateway.connect()
            var byMethod = 0
            var called: Set<String> = []
            for example in Self.examples {
                let direct = try TallyJSONDecoder().decode(
                    JSONValue.self,
                    from: try await setup.client.send(rawBody: example.requestBody, service: example.service))
                #expect(direct.differences(from: example.expectedResponse).isEmpty, "\(example) directly")

                // A system method is answered by the service it is asked on, which an HTTP caller names so.
                let request = try TallyJSONDecoder().decode(JSONValue.self, from: example.requestBody)
                let service =
                    request["method"]?.string?.hasPrefix("system.") == true ? [("Tally-Service", example.service)] : []

                // The whole envelope: the whole response, the example's own id in it.
                let whole = try await connection.post("/v1", example.requestBody, headers: service)
                let code = direct["error"]?["code"]?.string
                #expect(whole.status == code.map { expectedStatus[$0] ?? 500 } ?? 200, "\(example): \(whole.text)")
                #expect(whole.headers["content-type"] == "application/json")
                let wholeDifferences = try whole.value.differences(from: direct.masked(by: example.expectedResponse))
                #expect(wholeDifferences.isEmpty, "\(example) on POST /v1: \(wholeDifferences)")

                // The params alone, for a request that says nothing else.
                guard case .object(let members) = request, Set(members.keys).isSubset(of: Self.plainMembers),
                    let method = request["method"]?.string, example.file.path.contains("/\(method)/")
                else { continue }
                byMethod += 1
                called.insert(method)
                let params = try Self.paramsText(of: example)
                let alone = try await connection.post("/v1/\(method)", params, headers: service)
                #expect(alone.status == code.map { expectedStatus[$0] ?? 500 } ?? 200, "\(example): \(alone.text)")
                let requestID = try #require(alone.headers["tally-request-id"], "\(example): the wire id in a header")
                if code == nil {
                    let differences = try alone.value.differences(
                        from: try #require(direct["result"]).masked(by: example.expectedResponse["result"]))
                    #expect(differences.isEmpty, "\(example) on POST /v1/\(method): \(differences)")
                } else {
                    let answered = try alone.value
                    #expect(answered["id"] == .string(requestID), "\(example): the error names the wire id")
                    let differences = try #require(answered["error"]).differences(
                        from: try #require(direct["error"]).masked(by: example.expectedResponse["error"]))
                    #expect(differences.isEmpty, "\(example) on POST /v1/\(method): \(differences)")
                }
            }
            #expect(byMethod >= 25, "most examples are plain params of their method: \(byMethod)")
            let methods = Set(TallyMethods.v1.map { $0.name })
            #expect(called == methods, "every method on POST /v1/{method}: \(methods.subtracting(called)) not called")
        }
    }
}
