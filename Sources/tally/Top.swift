import ArgumentParser
import Foundation
import TallyCommandLine
import TallyConsole
import TallyJSONCoding
import TallyMonitoring
import TallyProtocol
import TallyTracing

struct Top: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show services, worker processes and incidents of one or more brokers, refreshing, like top.",
        discussion: """
            Reads each broker's console document (GET /console/v1/cluster.json on its --http address) every \
            --interval and redraws the screen; Ctrl-C quits. With several --http, each broker is shown in turn. \
            --once prints one snapshot of every broker and exits, for scripts: 0 when every broker answered, 2 when \
            one answered with something that is not a Tally console (an HTTP error, a broker without it), 3 when one \
            did not answer at all. Text from peers (service and worker names) is printed with control characters \
            escaped. --json prints one snapshot as JSON and exits (as --once does): {"brokers": [{"http", "console"}]}, \
            "console" the broker's document as it is, or "error" {"code": "no_answer" | "not_a_console", "message"} \
            and "answered" for a broker without one.

            Examples:
              tally top --http 127.0.0.1:9100
              tally top --once --http 10.0.0.5:9100 --http 10.0.0.6:9100
            """)

    @Option(
        name: .customLong("http"),
        help: "A broker's --http address, HOST:PORT ([IPv6]:PORT); repeat for several. (default: 127.0.0.1:9100)")
    var http: [String] = []

    @Flag(help: "Print one snapshot and exit.")
    var once = false

    @OptionGroup var output: OutputOptions

    @Option(help: "Time between refreshes, e.g. 2s.")
    var interval = DurationArgument(.seconds(2))

    @Option(help: "Time each broker may take to answer.")
    var timeout = DurationArgument(.seconds(3))

    func validate() throws {
        for address in http {
            do {
                _ = try HostAndPort(parsing: address)
            } catch {
                throw ValidationError("--http \(address): \(error.description)")
            }
        }
        guard interval.duration >= .milliseconds(100) else { throw ValidationError("--interval is at least 100ms") }
    }

    func run() async throws {
        let addresses = try (http.isEmpty ? ["127.0.0.1:9100"] : http).map { try HostAndPort(parsing: $0) }
        if once || output.json {
            let brokers = await Self.fetchAll(addresses, timeout: timeout.duration)
            if output.json {
                Output.printJSON(["brokers": brokers.map(Entry.init)])
            } else {
                print(TopScreen(width: nil, incidents: .max).lines(brokers).joined(separator: "\n"))
            }
            if let status = Self.status(brokers) { throw status }
            return
        }
        while !Task.isCancelled {
            let brokers = await Self.fetchAll(addresses, timeout: timeout.duration)
            let size = TerminalSize.current
            let screen = TopScreen(width: size?.columns, incidents: 5)
            var lines = screen.lines(brokers)
            if let rows = size?.rows, lines.count > rows - 1 { lines = Array(lines.prefix(rows - 1)) }
            // Home, clear, the screen; refreshed in place like top.
            FileHandle.standardOutput.write(Data(("\u{1B}[H\u{1B}[2J" + lines.joined(separator: "\n") + "\n").utf8))
            try? await Task.sleep(for: interval.duration)
        }
    }

    /// One broker in `--json`'s document.
    struct Entry: Encodable {
        var http: String
        var console: ClusterDocument?
        var error: TallyError?
        var answered: Bool?

        init(_ broker: TopScreen.Broker) {
            http = broker.address
            switch broker.outcome {
            case .success(let document): console = document
            case .failure(.noAnswer(let reason)):
                (error, answered) = (TallyError(ErrorCode(rawValue: "no_answer"), reason), false)
            case .failure(.notAConsole(let reason)):
                (error, answered) = (TallyError(ErrorCode(rawValue: "not_a_console"), reason), true)
            }
        }
    }

    /// `--once`'s exit status: the worst of the brokers', or `nil` for success.
    static func status(_ brokers: [TopScreen.Broker]) -> ExitCode? {
        var status: ExitCode?
        for broker in brokers {
            switch broker.outcome {
            case .success: break
            case .failure(.notAConsole): status = status ?? Status.tallyError
            case .failure(.noAnswer): status = Status.noAnswer
            }
        }
        return status
    }

    /// Every broker's document, asked at once, in the order given.
    static func fetchAll(_ addresses: [HostAndPort], timeout: Duration) async -> [TopScreen.Broker] {
        await withTaskGroup(of: (Int, TopScreen.Broker).self) { group in
            for (index, address) in addresses.enumerated() {
                group.addTask {
                    (index, TopScreen.Broker(address: address.description, outcome: await fetch(address, timeout)))
                }
            }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }.sorted { $0.key < $1.key }.map(\.value)
        }
    }

    /// One broker's document, read on a thread of its own: the socket calls block (each for at most `timeout`).
    static func fetch(_ address: HostAndPort, _ timeout: Duration) async -> Result<ClusterDocument, TopFailure> {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: fetchBlocking(address, timeout))
            }
            thread.start()
        }
    }

    static func fetchBlocking(_ address: HostAndPort, _ timeout: Duration) -> Result<ClusterDocument, TopFailure> {
        let exchange = HTTPExchange(host: address.host, port: Int(address.port), timeout: timeout)
        let response: HTTPExchange.Response
        do {
            response = try exchange.request("GET", ConsoleService.documentPath, maxResponseBytes: 16 << 20)
        } catch {
            return .failure(error.answered ? .notAConsole(error.description) : .noAnswer(error.description))
        }
        guard response.status == 200 else {
            return .failure(.notAConsole("HTTP \(response.status) for \(ConsoleService.documentPath)"))
        }
        do {
            return .success(try TallyJSONDecoder().decode(ClusterDocument.self, from: response.body))
        } catch {
            return .failure(.notAConsole("\(error)"))
        }
    }
}

/// The terminal's size, when standard output is one.
struct TerminalSize {
    let columns: Int
    let rows: Int

    static var current: TerminalSize? {
        guard isatty(STDOUT_FILENO) != 0 else { return nil }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return TerminalSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
    }
}
