import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import TallyClient
import TallyCommandLine
import TallyGateway
import TallyMonitoring
import TallyProtocol

@main
struct TallyGatewayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tally-gateway",
        abstract: "Tally over HTTP/1.1: POST /v1/{method} with the params as JSON answers the result.",
        discussion: """
            Calls the brokers through TallyClient (failover, deadlines, retries and CURVE as every client has \
            them) and answers over HTTP/1.1 with keep-alive: POST /v1/{method} takes the method's params as its \
            body and answers its result, POST /v1 takes a whole v1 envelope, GET /openapi.json is the OpenAPI 3.1 \
            document of both, generated from the protocol's schemas when this program was built. Errors keep \
            their v1 body under the HTTP status of their code. Stateless: run as many as the load needs, behind a \
            load balancer.

            Every option can also come from the environment variable named in its help, or from a JSON \
            configuration file (--config) whose keys are the option names: flags win over the environment, \
            which wins over the file, which wins over the defaults.
            On SIGTERM or SIGINT the gateway stops taking connections, lets the calls in progress finish within \
            the shutdown grace and exits.

            Example:
              tally-gateway --broker tcp://127.0.0.1:5555 --listen 127.0.0.1:8080
              curl -s localhost:8080/v1/system.ping -d '{}'
            """,
        version: TallyBuild.version,
        subcommands: [Serve.self, APIKey.self],
        defaultSubcommand: Serve.self)
}
