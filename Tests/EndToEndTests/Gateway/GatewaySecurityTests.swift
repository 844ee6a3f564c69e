import Foundation
import TallyJSONCoding
import TallyTesting
import Testing

/// API keys (refused calls reach no broker), TLS by the gateway itself, and the header limit.
@Suite(.realProcesses) struct GatewaySecurityTests {
    static func temporaryFile(_ name: String, _ text: String) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tally-gateway-\(UUID().uuidString)-\(name)")
        try Data(text.utf8).write(to: file)
        return file
    }

    @Test func callsWithoutAKnownKeyAreRefusedBeforeAnyBrokerSeesThem() async throws {
        let key = "tally_" + UUID().uuidString
        let digest = try await ShortCommand.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", "-c", "import hashlib,sys; print(hashlib.sha256(sys.argv[1].encode()).hexdigest())", key])
        let keys = try Self.temporaryFile(
            "keys",
            "# test keys\nother sha256:\(String(repeating: "ab", count: 32))\ntests sha256:\(digest.output.trimmingCharacters(in: .whitespacesAndNewlines))\n"
        )
        defer { try? FileManager.default.removeItem(at: keys) }
        let brokerHTTP = ProcessProbes.freeLoopbackAddress()
        try await GatewayCluster.with(
            brokerArguments: ["--http", brokerHTTP], gatewayArguments: ["--api-keys", keys.path]
        ) { setup in
            let connection = try setup.gateway.connect()
            func brokerRequests() async -> Double {
                ProcessProbes.total(
                    "tally_broker_requests_total", in: await ProcessProbes.metrics(at: brokerHTTP) ?? "")
            }
            let before = await brokerRequests()
            for authorization in [nil, "Bearer wrong", "Basic \(key)", "Bearer", "Bearer \(key)x"] {
                let refused = try await connection.post(
                    "/v1/system.ping", Array("{}".utf8), headers: authorization.map { [("Authorization", $0)] } ?? [])
                try GatewayErrorsTests.expectError(refused, "unauthorized")
                #expect(refused.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
                #expect(refused.headers["tally-request-id"] == nil, "no request was made")
            }
            let envelope = try await connection.post(
                "/v1", Array(#"{"version":1,"id":"k","method":"system.ping"}"#.utf8),
                headers: [("Authorization", "Bearer nope")])
            #expect(envelope.status == 401)
            #expect(await brokerRequests() == before, "no refused call reached the broker")
            // The document is public; calls with the key go through, the scheme in any case.
            #expect(try await connection.get("/openapi.json").status == 200)
            for scheme in ["Bearer", "bearer"] {
                let allowed = try await connection.post(
                    "/v1/system.ping", Array("{}".utf8), headers: [("Authorization", "\(scheme) \(key)")])
                #expect(allowed.status == 200, "\(allowed.text)")
            }
            #expect(await eventually { await brokerRequests() >= before + 2 })
        }
    }

    @Test func tlsIsServedByTheGatewayWithItsCertificate() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificate = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        let made = try await ShortCommand.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", key, "-out", certificate, "-days", "1", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
            ], timeout: .seconds(30))
        try #require(made.succeeded, "openssl: \(made.errorOutput)")
        try await GatewayCluster.with(gatewayArguments: ["--tls-certificate", certificate, "--tls-key", key]) { setup in
            #expect(setup.gateway.scheme == "https")
            // Python's own TLS client, trusting only this certificate, checking the host name.
            let script = """
                import http.client, json, ssl, sys
                context = ssl.create_default_context(cafile=sys.argv[2])
                connection = http.client.HTTPSConnection("127.0.0.1", int(sys.argv[1]), context=context, timeout=10)
                for _ in range(3):
                    connection.request("POST", "/v1/system.ping", body=b"{}", headers={"Content-Type": "application/json"})
                    response = connection.getresponse()
                    assert response.status == 200, response.status
                    assert json.loads(response.read())["service"] == "tally.history"
                print(connection.sock.version())
                """
            let run = try await ShortCommand.run(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["python3", "-c", script, String(setup.gateway.port), certificate],
                timeout: .seconds(30))
            #expect(run.succeeded, "\(run.output)\(run.errorOutput)")
            #expect(run.output.hasPrefix("TLSv1.2") || run.output.hasPrefix("TLSv1.3"), "\(run.output)")
            // Plain HTTP on the TLS port is no call.
            let plain = try setup.gateway.connect()
            let answered = try? await onOwnThread {
                try plain.request("POST", "/v1/system.ping", body: Array("{}".utf8))
            }
            #expect(answered?.status != 200)
        }
    }

    @Test func headersOverTheLimitAreRefusedAndTheConnectionClosed() async throws {
        try await GatewayCluster.with(workers: 1, gatewayArguments: ["--max-header-bytes", "2048"]) { setup in
            let connection = try setup.gateway.connect()
            let small = try await connection.post(
                "/v1/system.ping", [], headers: [("X-Note", String(repeating: "a", count: 500))])
            #expect(small.status == 200)
            let large = try setup.gateway.connect()
            let refused = try await onOwnThread {
                try large.request(
                    "POST", "/v1/system.ping", headers: [("X-Note", String(repeating: "a", count: 4000))], body: [])
            }
            #expect(refused.status == 400)
            #expect(try await onOwnThread { large.isClosedByServer() })
        }
    }
}
