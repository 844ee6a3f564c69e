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

struct Health: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Check every Tally service: a live worker (MMI) that answers system.ping. Exit 0 when all are healthy.")

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let client = try connection.client()
        var healthy = true
        for service in TallyService.domainServices {
            do {
                guard try await client.isServiceAvailable(service.rawValue) else {
                    print("\(service): DOWN (no live worker)")
                    healthy = false
                    continue
                }
                let pong = try await client.ping(service: service)
                print("\(service): OK (\(pong.worker), version \(pong.serverVersion))")
            } catch {
                print("\(service): DOWN (\(error))")
                healthy = false
            }
        }
        await client.stop()
        if !healthy { throw Status.tallyError }
    }
}
