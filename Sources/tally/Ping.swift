import ArgumentParser
import TallyClient
import TallyProtocol

struct Ping: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send system.ping to a service and print which worker answered.")

    @Option(help: "The service to ping.")
    var service = TallyService.history.rawValue

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let client = try connection.client()
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let pong = try await client.ping(service: TallyService(rawValue: service))
            let elapsed = clock.now - start
            print(
                "\(pong.service): \(pong.worker) connection \(pong.connection), version \(pong.serverVersion), up \(pong.uptimeSeconds)s, round trip \(elapsed)"
            )
            await client.stop()
        } catch {
            await client.stop()
            printError(error.description)
            throw Status.exitCode(for: error)
        }
    }
}

struct MMI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mmi", abstract: "Ask the broker whether a service has a live worker (prints 200 or 404).")

    @Argument(help: "The service, e.g. tally.streak.")
    var service: String

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let client = try connection.client()
        do {
            let available = try await client.isServiceAvailable(service)
            await client.stop()
            print(available ? "200" : "404")
            if !available { throw Status.tallyError }
        } catch let error as TallyClientError {
            await client.stop()
            printError(error.description)
            throw Status.exitCode(for: error)
        }
    }
}

/// How one service stood in `tally health`.
enum ServiceHealth: Sendable {
    case healthy(String)
    /// Tally answered: no live worker (MMI 404), or an error response to the ping.
    case down(String)
    /// Nothing answered (timeout, no broker).
    case unanswered(String)
}

struct Health: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check every Tally service: a live worker (MMI) that answers system.ping.",
        discussion: """
            The services are checked at once, so a broker that is down costs one timeout, not one per service. \
            Exit 0 when all are healthy, 2 when Tally answered that one is down, 3 when some got no answer.
            """)

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let client = try connection.client()
        let results = await withTaskGroup(of: (Int, ServiceHealth).self) { group in
            for (index, service) in TallyService.domainServices.enumerated() {
                group.addTask { (index, await Self.check(service, with: client)) }
            }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        await client.stop()
        var status: ExitCode?
        for (index, service) in TallyService.domainServices.enumerated() {
            switch results[index]! {
            case .healthy(let text): print("\(service): OK (\(text))")
            case .down(let text):
                print("\(service): DOWN (\(text))")
                status = status ?? Status.tallyError
            case .unanswered(let text):
                print("\(service): NO ANSWER (\(text))")
                status = Status.noAnswer
            }
        }
        if let status { throw status }
    }

    static func check(_ service: TallyService, with client: TallyClient) async -> ServiceHealth {
        do {
            guard try await client.isServiceAvailable(service.rawValue) else { return .down("no live worker") }
            let pong = try await client.ping(service: service)
            return .healthy("\(pong.worker), version \(pong.serverVersion)")
        } catch {
            return error.isFromServer ? .down(error.description) : .unanswered(error.description)
        }
    }
}
