import ArgumentParser
import Foundation
import TallyClient
import TallyCommandLine
import TallyCalendar
import TallyProtocol

struct Call: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Call a method and print the response.",
        discussion: """
            The params are a JSON object: inline with -d, or read from a file or standard input (--params FILE, \
            --params -). The envelope (version, id, method, deadline) is added for you; --envelope sends the input \
            as the whole request instead. A file from Protocol/examples (an object with "request" and "response") \
            is sent as its request, to its service; the method may then be left out. The response is printed as \
            pretty JSON on standard output.

            The request carries a deadline, --timeout from now: no worker computes it after the command has stopped \
            waiting. An example's own deadline, or one in an --envelope request, is sent as it is.

            A method is AREA.NAME (history.month, streak.summary, workout.day, system.ping): the area picks the \
            service (system.* goes to tally.history), unless --service says otherwise. A method without a known \
            area is a usage error.

            Examples:
              tally call system.ping
              tally call history.months -d '\(exampleParams)'
              tally call --params Protocol/examples/streak.summary/active-streak.json
            """)

    @Argument(
        help: "The method, e.g. history.month, streak.summary, workout.day, system.ping. (default: the example's)")
    var method: String?

    @Option(name: [.customShort("d"), .long], help: "The params object, inline JSON.")
    var data: String?

    @Option(name: .long, help: "File holding the params object, or - for standard input. (default: no params)")
    var params: String?

    @Flag(help: "The input is a whole request envelope, sent as it is.")
    var envelope = false

    @Option(help: "MDP service to send to. (default: from the method: history.* → tally.history, …)")
    var service: String?

    @Flag(help: "Print the response exactly as received, on one line.")
    var raw = false

    @OptionGroup var output: OutputOptions

    @OptionGroup var connection: ConnectionOptions

    /// The method's area when it names one this Tally serves: those of the v1 methods.
    static let areas = TallyMethods.areas

    /// The params of `history.months` the helps show inline.
    static let exampleParams = #"{"time_zone":"UTC","today":"2026-11-23","records":[]}"#

    func validate() throws {
        if let method { _ = try Self.service(of: method, override: service) }
        if data != nil, params != nil {
            throw ValidationError("give the params inline (-d) or from --params, not both")
        }
        if raw, output.json { throw ValidationError("--raw and --json print differently; give one") }
    }

    func run() async throws {
        let input = try readInput()
        let configuration: TallyClientConfiguration
        do {
            configuration = try connection.configuration()
        } catch let error as TallyClientError {
            throw Output.fail(error, json: output.json)
        }
        let deadline = Instant.now.advanced(by: configuration.timeout)
        let (body, service) = try request(from: input, deadline: deadline)
        let client = try connection.client(configuration, json: output.json)
        let reply: [UInt8]
        do {
            reply = try await client.send(rawBody: body, service: service)
        } catch {
            await client.stop()
            throw Output.fail(error, json: output.json)
        }
        await client.stop()
        print(raw ? String(decoding: reply, as: UTF8.self) : Output.pretty(reply))
        if (try? JSONDecoder().decode(ErrorProbe.self, from: Data(reply)))?.error != nil {
            throw Status.tallyError
        }
    }

    /// The body to send and the service to send it to.
    /// - Parameter deadline: sent as the request's `deadline` unless the input is a whole request.
    func request(from input: [UInt8]?, deadline: Instant) throws -> (body: [UInt8], service: String) {
        var object: Any?
        if let input {
            do {
                object = try JSONSerialization.jsonObject(with: Data(input))
            } catch  where !envelope {
                throw ValidationError("the params are not valid JSON: \(error.localizedDescription)")
            } catch {}
        }
        if !envelope, let example = object as? [String: Any], var request = example["request"] as? [String: Any],
            example["response"] != nil
        {
            if request["deadline"] == nil { request["deadline"] = RFC3339.format(deadline, offset: 0) }
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
            guard let input else { throw ValidationError("--envelope needs -d, --params FILE or --params -") }
            return (input, target)
        }
        let request: [String: Any] = [
            "version": ProtocolVersion.current, "id": "cli-\(UInt32.random(in: 0...UInt32.max))",
            "method": method, "params": object ?? [String: Any](), "deadline": RFC3339.format(deadline, offset: 0),
        ]
        return (Array(try JSONSerialization.data(withJSONObject: request)), target)
    }

    /// The input: `-d`'s text, `--params`' file or standard input, or nothing.
    /// - Throws: `ValidationError` when the file cannot be read.
    func readInput() throws -> [UInt8]? {
        if let data { return Array(data.utf8) }
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
        return TallyService(sendingMethod: method).rawValue
    }
}

/// Reads only whether a response is an error.
struct ErrorProbe: Decodable {
    var error: TallyError?
}
