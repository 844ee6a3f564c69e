import ArgumentParser
import TallyClient
import TallyProtocol

struct Describe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Ask each service what it serves: its methods with their schema ids, protocol versions and build.",
        discussion: """
            Sends system.describe to every service at once (by default Tally's three; --service to choose). A \
            service without a live worker is reported as such rather than waited for. Exit 0 when every service \
            answered, 2 when Tally said one is down, 3 when some got no answer.
            """)

    @Option(name: .customLong("service"), help: "A service to describe; repeat for several (default: Tally's three).")
    var services: [String] = TallyService.domainServices.map(\.rawValue)

    @OptionGroup var output: OutputOptions

    @OptionGroup var connection: ConnectionOptions

    /// One service's answer.
    struct Entry: Encodable {
        var service: String
        var result: SystemDescribe.Result?
        var error: TallyError?
        /// Whether Tally answered at all (a down service) or nothing did.
        var answered: Bool

        enum CodingKeys: String, CodingKey { case service, result, error }
    }

    func run() async throws {
        let client = try connection.client(json: output.json)
        let entries = await withTaskGroup(of: (Int, Entry).self) { group in
            for (index, service) in services.enumerated() {
                group.addTask { (index, await Self.describe(service, with: client)) }
            }
            return await group.reduce(into: [Entry?](repeating: nil, count: services.count)) { $0[$1.0] = $1.1 }
        }.compactMap { $0 }
        await client.stop()
        if output.json {
            Output.printJSON(["services": entries])
        } else {
            print(entries.map(Self.text).joined(separator: "\n"))
        }
        if entries.contains(where: { $0.error != nil && !$0.answered }) { throw Status.noAnswer }
        if entries.contains(where: { $0.error != nil }) { throw Status.tallyError }
    }

    static func describe(_ service: String, with client: TallyClient) async -> Entry {
        do {
            guard try await client.isServiceAvailable(service) else {
                return Entry(
                    service: service, error: TallyError(.unavailable, "no live worker serves \(service)"),
                    answered: true)
            }
            let result = try await client.describe(service: TallyService(rawValue: service))
            return Entry(service: service, result: result, answered: true)
        } catch {
            let failure = Output.failure(error)
            return Entry(service: service, error: failure.error, answered: failure.answered)
        }
    }

    /// `tally.streak: host/123, version 1.4.0, protocol 1` and a line per method with its schema ids.
    static func text(_ entry: Entry) -> String {
        guard let result = entry.result else {
            let error = entry.error.map { "\($0.code): \($0.message)" } ?? "no answer"
            return "\(entry.service): \(entry.answered ? "DOWN" : "NO ANSWER") (\(error))"
        }
        let versions = result.protocolVersions.map(String.init).joined(separator: ", ")
        let width = result.methods.map(\.name.count).max() ?? 0
        let methods = result.methods.map { method in
            let name = method.name + String(repeating: " ", count: width - method.name.count)
            let indent = String(repeating: " ", count: width)
            return "  \(name)  params \(method.paramsSchema)\n  \(indent)  result \(method.resultSchema)"
        }
        return
            (["\(result.service): \(result.worker), version \(result.serverVersion), protocol \(versions)"] + methods)
            .joined(separator: "\n")
    }
}
