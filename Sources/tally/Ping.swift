import ArgumentParser
import TallyClient
import TallyProtocol

struct Ping: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send system.ping to a service and print which worker answered.",
        discussion: """
            --json prints {"service", "result", "round_trip_ms"}: the ping's result as Tally sent it and the \
            round trip in milliseconds.
            """)

    @Option(help: "The service to ping.")
    var service = SystemPing.defaultService.rawValue

    @OptionGroup var output: OutputOptions

    @OptionGroup var connection: ConnectionOptions

    /// `--json`'s document.
    struct Report: Encodable {
        var service: String
        var result: SystemPing.Result
        var roundTripMilliseconds: Double

        enum CodingKeys: String, CodingKey {
            case service, result
            case roundTripMilliseconds = "round_trip_ms"
        }
    }

    func run() async throws {
        let client = try connection.client(json: output.json)
        let clock = ContinuousClock()
        let start = clock.now
        let pong: SystemPing.Result
        do {
            pong = try await client.ping(service: TallyService(rawValue: service))
        } catch {
            await client.stop()
            throw Output.fail(error, json: output.json)
        }
        let elapsed = clock.now - start
        await client.stop()
        if output.json {
            let milliseconds = Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
            Output.printJSON(Report(service: pong.service, result: pong, roundTripMilliseconds: milliseconds))
        } else {
            print(
                "\(pong.service): \(pong.worker) connection \(pong.connection), version \(pong.serverVersion), "
                    + "up \(pong.uptimeSeconds)s, round trip \(elapsed)")
        }
    }
}

struct MMI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mmi", abstract: "Ask the broker whether a service has a live worker (prints 200 or 404).",
        discussion: """
            Exit 0 for 200, 2 for 404. --json prints {"service", "available"}.
            """)

    @Argument(help: "The service, e.g. tally.streak.")
    var service: String

    @OptionGroup var output: OutputOptions

    @OptionGroup var connection: ConnectionOptions

    struct Report: Encodable {
        var service: String
        var available: Bool
    }

    func run() async throws {
        let client = try connection.client(json: output.json)
        let available: Bool
        do {
            available = try await client.isServiceAvailable(service)
        } catch {
            await client.stop()
            throw Output.fail(error, json: output.json)
        }
        await client.stop()
        if output.json {
            Output.printJSON(Report(service: service, available: available))
        } else {
            print(available ? "200" : "404")
        }
        if !available { throw Status.tallyError }
    }
}

/// How one service stood in `tally health`.
enum ServiceHealth: Sendable {
    case healthy(SystemPing.Result)
    /// Tally answered: no live worker (MMI 404), or an error response to the ping.
    case down(TallyError)
    /// Nothing answered (timeout, no broker).
    case unanswered(TallyError)
}

struct Health: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check every Tally service: a live worker (MMI) that answers system.ping.",
        discussion: """
            The services are checked at once, so a broker that is down costs one timeout, not one per service. \
            Exit 0 when all are healthy, 2 when Tally answered that one is down, 3 when some got no answer. \
            --json prints {"services": [{"service", "status": "ok" | "down" | "no_answer", "worker", \
            "server_version", "error"}]}.
            """)

    @OptionGroup var output: OutputOptions

    @OptionGroup var connection: ConnectionOptions

    /// One service in `--json`'s document.
    struct Entry: Encodable {
        var service: String
        var status: String
        var worker: String?
        var serverVersion: String?
        var error: TallyError?

        enum CodingKeys: String, CodingKey {
            case service, status, worker, error
            case serverVersion = "server_version"
        }
    }

    func run() async throws {
        let client = try connection.client(json: output.json)
        let results = await withTaskGroup(of: (Int, ServiceHealth).self) { group in
            for (index, service) in TallyService.domainServices.enumerated() {
                group.addTask { (index, await Self.check(service, with: client)) }
            }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        await client.stop()
        var status: ExitCode?
        var entries: [Entry] = []
        for (index, service) in TallyService.domainServices.enumerated() {
            let name = service.rawValue
            switch results[index]! {
            case .healthy(let pong):
                entries.append(
                    Entry(service: name, status: "ok", worker: pong.worker, serverVersion: pong.serverVersion))
                if !output.json { print("\(name): OK (\(pong.worker), version \(pong.serverVersion))") }
            case .down(let error):
                entries.append(Entry(service: name, status: "down", error: error))
                if !output.json { print("\(name): DOWN (\(error.message))") }
                status = status ?? Status.tallyError
            case .unanswered(let error):
                entries.append(Entry(service: name, status: "no_answer", error: error))
                if !output.json { print("\(name): NO ANSWER (\(error.message))") }
                status = Status.noAnswer
            }
        }
        if output.json { Output.printJSON(["services": entries]) }
        if let status { throw status }
    }

    static func check(_ service: TallyService, with client: TallyClient) async -> ServiceHealth {
        do {
            guard try await client.isServiceAvailable(service.rawValue) else {
                return .down(TallyError(.unavailable, "no live worker"))
            }
            return .healthy(try await client.ping(service: service))
        } catch {
            let failure = Output.failure(error)
            return failure.answered ? .down(failure.error) : .unanswered(failure.error)
        }
    }
}
