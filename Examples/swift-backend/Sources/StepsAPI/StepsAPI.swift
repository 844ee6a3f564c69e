import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import TallyClient

/// An HTTP backend that answers an app's streak screen by calling Tally (see `StreakRoutes`).
///
/// The Tally client and the HTTP server are two services of one `ServiceGroup`. On SIGTERM or SIGINT the group shuts
/// them down in reverse order: the server first (it stops accepting and lets requests in flight finish, still with a
/// running client), then the client. Prints `listening on http://HOST:PORT` once it accepts connections.
@main
enum StepsAPI {
    static func main() async throws {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        let settings: Settings
        let tally: TallyClient
        var logger = Logger(label: "steps-api")
        do {
            settings = try Settings(environment: ProcessInfo.processInfo.environment)
            logger.logLevel = settings.logLevel
            tally = try TallyClient(configuration: settings.tally, logger: logger)
        } catch {
            // A setting that cannot work stops the process at start, saying which (exit 64, as a usage error).
            FileHandle.standardError.write(Data("StepsAPI: \(error)\n".utf8))
            exit(64)
        }
        let router = Router()
        StreakRoutes(tally: tally).add(to: router)
        let app = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(settings.host, port: settings.port)),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? settings.port
                // Unbuffered, so that a process reading our output (a test, a supervisor) sees it now.
                FileHandle.standardOutput.write(Data("listening on http://\(settings.host):\(port)\n".utf8))
            },
            logger: logger
        )
        let services = ServiceGroup(
            services: [tally, app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        try await services.run()
    }
}
