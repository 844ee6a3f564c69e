import ArgumentParser
import Foundation
import TallyClient
import TallyCommandLine
import TallyProtocol

struct Call: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Call a method and print the response.",
        discussion: """
            The params are a JSON object, read from a file or from standard input (-). The envelope (version, id, \
            method) is added for you; --envelope sends the input as the whole request instead. The response is \
            printed as pretty JSON on standard output.
            """)

    @Argument(help: "The method, e.g. history.month, streak.summary, workout.day, system.ping.")
    var method: String

    @Option(name: .long, help: "File holding the params object, or - for standard input. (default: no params)")
    var params: String?

    @Flag(help: "The input is a whole request envelope, sent as it is.")
    var envelope = false

    @Option(help: "MDP service to send to. (default: from the method: history.* → tally.history, …)")
    var service: String?

    @Flag(help: "Print the response exactly as received, on one line.")
    var raw = false

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let input = try readInput()
        let body: [UInt8]
        if envelope {
            guard let input else { throw ValidationError("--envelope needs --params FILE or -") }
            body = input
        } else {
            let paramsObject: Any
            do {
                paramsObject = try input.map { try JSONSerialization.jsonObject(with: Data($0)) } ?? [String: Any]()
            } catch {
                throw ValidationError("the params are not valid JSON: \(error.localizedDescription)")
            }
            let request: [String: Any] = [
                "version": ProtocolVersion.current, "id": "cli-\(UInt32.random(in: 0...UInt32.max))",
                "method": method, "params": paramsObject,
            ]
            body = Array(try JSONSerialization.data(withJSONObject: request))
        }
        let client = try connection.client()
        let reply: [UInt8]
        do {
            reply = try await client.send(rawBody: body, service: service ?? Self.service(of: method))
        } catch {
            await client.stop()
            printError(error.description)
            throw Status.exitCode(for: error)
        }
        await client.stop()
        print(raw ? String(decoding: reply, as: UTF8.self) : Self.pretty(reply))
        if (try? JSONDecoder().decode(ErrorProbe.self, from: Data(reply)))?.error != nil {
            throw Status.tallyError
        }
    }

    func readInput() throws -> [UInt8]? {
        guard let params else { return nil }
        if params == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
        guard let data = FileManager.default.contents(atPath: params) else {
            throw ValidationError("cannot read \(params)")
        }
        return Array(data)
    }

    /// The MDP service of a method: its area (`history.month` → `tally.history`); `system.*` → `tally.history`.
    static func service(of method: String) -> String {
        let area = method.split(separator: ".").first.map(String.init) ?? ""
        return ["history", "streak", "workout"].contains(area) ? "tally.\(area)" : TallyService.history.rawValue
    }

    static func pretty(_ bytes: [UInt8]) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)),
            let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Reads only whether a response is an error.
struct ErrorProbe: Decodable {
    var error: TallyError?
}
