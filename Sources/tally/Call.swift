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
            method) is added for you; --envelope sends the input as the whole request instead. A file from \
            Protocol/examples (an object with "request" and "response") is sent as it is: its request, to its \
            service; the method may then be left out. The response is printed as pretty JSON on standard output.

            A method is AREA.NAME (history.month, streak.summary, workout.day, system.ping): the area picks the \
            service (system.* goes to tally.history), unless --service says otherwise. A method without a known \
            area is a usage error.
            """)

    @Argument(
        help: "The method, e.g. history.month, streak.summary, workout.day, system.ping. (default: the example's)")
    var method: String?

    @Option(name: .long, help: "File holding the params object, or - for standard input. (default: no params)")
    var params: String?

    @Flag(help: "The input is a whole request envelope, sent as it is.")
    var envelope = false

    @Option(help: "MDP service to send to. (default: from the method: history.* → tally.history, …)")
    var service: String?

    @Flag(help: "Print the response exactly as received, on one line.")
    var raw = false

    @OptionGroup var connection: ConnectionOptions

    /// The method's area when it names one this Tally serves: those of the v1 methods.
    static let areas = TallyMethods.areas

    func validate() throws {
        if let method { _ = try Self.service(of: method, override: service) }
    }

    func run() async throws {
        let input = try readInput()
        let (body, service) = try request(from: input)
        let client = try connection.client()
        let reply: [UInt8]
        do {
            reply = try await client.send(rawBody: body, service: service)
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

    /// The body to send and the service to send it to.
    func request(from input: [UInt8]?) throws -> (body: [UInt8], service: String) {
        var object: Any?
        if let input {
            do {
                object = try JSONSerialization.jsonObject(with: Data(input))
            } catch  where !envelope {
                throw ValidationError("the params are not valid JSON: \(error.localizedDescription)")
            } catch {}
        }
        if !envelope, let example = object as? [String: Any], let request = example["request"] as? [String: Any],
            example["response"] != nil
        {
            let exampleMethod = request["method"] as? String
            if let method, let exampleMethod, method != exampleMethod {
                throw ValidationError("the example calls \(exampleMethod), not \(method)")
            }
            let target =
                try service ?? (example["service"] as? String)
                ?? Self.service(of: method ?? exampleMethod ?? "", override: nil)
            return (Array(try JSONSerialization.data(withJSONObject: request)), target)
        }
        guard let method else {
            throw ValidationError("give the method (e.g. tally call history.month --params month.json)")
        }
        let target = try Self.service(of: method, override: service)
        if envelope {
            guard let input else { throw ValidationError("--envelope needs --params FILE or -") }
            return (input, target)
        }
        let request: [String: Any] = [
            "version": ProtocolVersion.current, "id": "cli-\(UInt32.random(in: 0...UInt32.max))",
            "method": method, "params": object ?? [String: Any](),
        ]
        return (Array(try JSONSerialization.data(withJSONObject: request)), target)
    }

    func readInput() throws -> [UInt8]? {
        guard let params else { return nil }
        if params == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
        guard let data = FileManager.default.contents(atPath: params) else {
            throw ValidationError("cannot read \(params)")
        }
        return Array(data)
    }

    /// The MDP service of a method: `override` when given, else the method's area (`history.month` →
    /// `tally.history`; `system.*` → `tally.history`).
    /// - Throws: `ValidationError` for a method without a known area (`month`, `steps.month`) and no override.
    static func service(of method: String, override: String?) throws -> String {
        if let override { return override }
        let parts = method.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, let area = parts.first.map(String.init), areas.contains(area) else {
            throw ValidationError(
                "'\(method)' is not AREA.NAME with an area of \(areas.joined(separator: ", ")) "
                    + "(e.g. history.month); give --service to send it elsewhere")
        }
        return area == "system" ? TallyService.history.rawValue : "tally.\(area)"
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
