import Foundation
import HTTPTypes
import TallyGateway
import TallyProtocol
import TallyTesting
import Testing

/// `GET /openapi.json` as built into the gateway: a valid OpenAPI 3.1 document (openapi-spec-validator, PyPI) with a
/// path for every method of the table and no other, error statuses that are the gateway's own, and examples that
/// its own schemas accept.
@Suite struct GatewayDocumentTests {
    static var document: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(OpenAPIDocument.bytes)) as? [String: Any]) ?? [:]
    }

    static var paths: [String: [String: Any]] { document["paths"] as? [String: [String: Any]] ?? [:] }

    @Test func everyMethodHasItsPathAndNothingElseIsThere() {
        #expect(Self.document["openapi"] as? String == "3.1.0")
        #expect((Self.document["info"] as? [String: Any])?["version"] as? String == TallyBuild.version)
        let methods = TallyMethods.v1.map { "/v1/\($0.name)" }
        #expect(Set(Self.paths.keys) == Set(methods + ["/v1", "/openapi.json"]))
        for (path, item) in Self.paths {
            #expect(Array(item.keys) == [path == "/openapi.json" ? "get" : "post"], "\(path)")
        }
    }

    /// Each error response says, in `x-tally-error-codes`, the codes the gateway answers with its status.
    @Test func theDocumentsStatusesAreTheGatewaysOwn() throws {
        var documented: Set<String> = []
        for (path, item) in Self.paths where path != "/openapi.json" {
            let operation = try #require(item["post"] as? [String: Any])
            let responses = try #require(operation["responses"] as? [String: [String: Any]])
            #expect(responses["200"] != nil, "\(path)")
            for (status, response) in responses where status != "200" {
                let codes = try #require(response["x-tally-error-codes"] as? [String], "\(path) \(status)")
                for code in codes {
                    documented.insert(code)
                    #expect(
                        String(ErrorStatus.status(of: ErrorCode(rawValue: code)).code) == status,
                        "\(path): \(code) is documented under \(status)")
                }
            }
        }
        // Every code a call can be answered with; not_found and method_not_allowed are answers to paths and HTTP
        // methods that no operation has.
        let callCodes = Set(ErrorStatus.table.keys.map(\.rawValue)).subtracting(["not_found", "method_not_allowed"])
        #expect(documented == callCodes)
    }

    /// openapi-spec-validator on the document, then every example in it (but those with `"$any"` placeholders, and
    /// the requests that exist to be refused) against the schema it illustrates, through the document's own components, by jsonschema (Draft 2020-12,
    /// OpenAPI 3.1's dialect): the components merged for client generators still accept what the workers answer.
    @Test func theDocumentIsValidAndItsExamplesMatchItsSchemas() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tally-openapi-\(UUID().uuidString).json")
        try Data(OpenAPIDocument.bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = """
            import json, sys
            try:
                from openapi_spec_validator import validate
                import jsonschema
            except ImportError as error:
                sys.exit(f"{error}: scripts/install-dependencies --test installs openapi-spec-validator")
            document = json.load(open(sys.argv[1]))
            validate(document)

            def has_any(value):
                if value == "$any":
                    return True
                if isinstance(value, list):
                    return any(has_any(v) for v in value)
                if isinstance(value, dict):
                    return any(has_any(v) for v in value.values())
                return False

            checked, problems = 0, []
            for path, item in document["paths"].items():
                for verb, operation in item.items():
                    # A request whose example answer is an error is meant to break its schema.
                    refused = {
                        name
                        for status, response in operation["responses"].items() if status != "200"
                        for name in response.get("content", {}).get("application/json", {}).get("examples", {})
                    }
                    request = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
                    request = dict(request, examples={
                        name: example for name, example in request.get("examples", {}).items() if name not in refused
                    })
                    contents = [("request", {"application/json": request})]
                    contents += [(status, r.get("content", {})) for status, r in operation["responses"].items()]
                    for where, content in contents:
                        media = content.get("application/json", {})
                        schema = dict(media.get("schema", {}), components=document["components"])
                        for name, example in media.get("examples", {}).items():
                            if has_any(example["value"]):
                                continue
                            checked += 1
                            errors = list(jsonschema.Draft202012Validator(schema).iter_errors(example["value"]))
                            problems += [f"{verb} {path} {where} {name}: {e.message}" for e in errors[:3]]
            print(json.dumps({"checked": checked, "problems": problems}))
            """
        let python = try await ShortCommand.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, file.path], timeout: .seconds(60))
        #expect(python.succeeded, "\(python.output)\(python.errorOutput.suffix(3000))")
        let outcome = try JSONSerialization.jsonObject(with: Data(python.output.utf8)) as? [String: Any]
        #expect((outcome?["checked"] as? Int ?? 0) >= 60, "\(python.output)")
        #expect((outcome?["problems"] as? [String])?.isEmpty == true, "\(python.output)")
    }
}
