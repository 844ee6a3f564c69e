import Foundation
import Logging
import TallyJSONCoding
import TallyProtocol
import TallyTesting
import TallyWorker
import Testing

/// `system.describe` says what the dispatcher really serves on each service, and each schema id it gives is the
/// `$id` of a schema in Protocol/schemas: discovery cannot drift from the methods or from the spec.
@Suite struct DescribeMethodTests {
    static let dispatcher = MethodRegistry.allMethods(identity: WorkerIdentity(name: "describe/1", version: "9.9.9"))
        .dispatcher(limits: RequestLimits())

    static func describe(on service: String) throws -> SystemDescribe.Result {
        let body = Array(#"{"version":1,"id":"d","method":"system.describe"}"#.utf8)
        let reply = dispatcher.respond(to: body, service: service, logger: Logger(label: "describe"))
        return try TallyJSON.decoder().decode(ResponseEnvelope<SystemDescribe.Result>.self, from: reply.bytes).outcome
            .get()
    }

    /// The `$id` of every schema file, by its path under Protocol/schemas.
    static func schemaIDs() throws -> [String: String] {
        let root = ProtocolExample.protocolDirectory.appendingPathComponent("schemas")
        var ids: [String: String] = [:]
        for folder in ["", "methods/"] {
            let directory = root.appendingPathComponent(folder)
            for file in try FileManager.default.contentsOfDirectory(atPath: directory.path)
            where file.hasSuffix(".schema.json") {
                let data = try Data(contentsOf: directory.appendingPathComponent(file))
                let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
                ids[folder + file] = object?["$id"] as? String
            }
        }
        return ids
    }

    @Test(arguments: TallyService.domainServices.map(\.rawValue) + ["custom.service"])
    func listsExactlyWhatTheServiceAnswers(service: String) throws {
        let result = try Self.describe(on: service)
        #expect(result.service == service)
        #expect(result.methods.map(\.name) == Self.dispatcher.methods(of: service))
        #expect(result.methods.map(\.name).contains("system.describe"))
        #expect(result.protocolVersions == ProtocolVersion.supported)
        #expect(result.serverVersion == "9.9.9" && result.worker == "describe/1")
    }

    @Test func everySchemaIDIsTheIDOfASchemaFile() throws {
        let files = try Self.schemaIDs()
        let known = Set(files.values)
        var described: Set<String> = []
        for service in TallyService.domainServices {
            let result = try Self.describe(on: service.rawValue)
            #expect(known.contains(result.requestSchema) && files["request.schema.json"] == result.requestSchema)
            #expect(known.contains(result.responseSchema) && files["response.schema.json"] == result.responseSchema)
            for method in result.methods {
                #expect(files["methods/\(method.name).params.schema.json"] == method.paramsSchema, "\(method.name)")
                #expect(files["methods/\(method.name).result.schema.json"] == method.resultSchema, "\(method.name)")
                described.formUnion([method.paramsSchema, method.resultSchema])
            }
        }
        // And the other way round: every method schema belongs to a method some service describes.
        let methodSchemas = Set(files.filter { $0.key.hasPrefix("methods/") }.values)
        #expect(methodSchemas == described)
    }
}
