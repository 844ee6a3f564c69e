import Foundation
import Logging
import Majordomo
import TallyCommandLine
import Testing

@Suite struct SettingSourcesTests {
    func configFile(_ json: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tally-config-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: url)
        return url.path
    }

    static let maxQueue = BrokerSettings.maxQueue
    static let heartbeat = BrokerSettings.heartbeatInterval
    static let bind = BrokerSettings.bind
    static let catalog = BrokerSettings.catalog

    @Test func precedenceIsFlagThenEnvironmentThenFileThenDefault() throws {
        let path = try configFile(
            #"{"max-queue": 300, "heartbeat-interval": "750ms", "bind": ["tcp://a:1", "tcp://b:2"]}"#)
        let fileOnly = try SettingSources(configPath: path, catalog: Self.catalog, environment: [:])
        #expect(try fileOnly.resolve(nil, Self.maxQueue) == 300)
        #expect(try fileOnly.resolve(nil, Self.heartbeat).duration == .milliseconds(750))
        #expect(try fileOnly.resolve([], Self.bind) == ["tcp://a:1", "tcp://b:2"])
        #expect(try fileOnly.resolve(nil, LoggingSettings.level) == .info)

        let withEnvironment = try SettingSources(
            configPath: path, catalog: Self.catalog,
            environment: ["TALLY_MAX_QUEUE": "20", "TALLY_BIND": "tcp://c:3, tcp://d:4"])
        #expect(try withEnvironment.resolve(nil, Self.maxQueue) == 20)
        #expect(try withEnvironment.resolve([], Self.bind) == ["tcp://c:3", "tcp://d:4"])
        #expect(try withEnvironment.resolve(5, Self.maxQueue) == 5)
        #expect(try withEnvironment.resolve(["tcp://e:5"], Self.bind) == ["tcp://e:5"])
    }

    @Test func defaultsAreTheLibrarysOwn() throws {
        let sources = try SettingSources(configPath: nil, catalog: Self.catalog, environment: [:])
        let library = BrokerConfiguration()
        #expect(try sources.resolve(nil, Self.maxQueue) == library.maxQueuedPerService)
        #expect(try sources.resolve(nil, Self.heartbeat).duration == library.heartbeatInterval)
        let worker = WorkerConfiguration(brokers: [], services: [])
        #expect(try sources.resolve(nil, WorkerSettings.concurrency) == worker.concurrency)
    }

    @Test func configPathMayComeFromTheEnvironment() throws {
        let path = try configFile(#"{"max-queue": 42}"#)
        let sources = try SettingSources(configPath: nil, catalog: Self.catalog, environment: ["TALLY_CONFIG": path])
        #expect(try sources.resolve(nil, Self.maxQueue) == 42)
    }

    /// The message of what `body` throws.
    func message(_ body: () throws -> Void) -> String {
        do {
            try body()
            return ""
        } catch {
            return "\(error)"
        }
    }

    @Test func mistakesStopTheProcessWithAMessageNamingTheOptionAndTheSource() throws {
        #expect(throws: (any Error).self) {
            try SettingSources(configPath: "/nonexistent/tally.json", catalog: Self.catalog)
        }
        #expect(throws: (any Error).self) { try SettingSources(configPath: try configFile("[1, 2]"), catalog: Self.catalog) }
        let typo = message { _ = try SettingSources(configPath: try configFile(#"{"max-qeue": 1}"#), catalog: Self.catalog) }
        #expect(typo.contains("max-qeue") && typo.contains("max-queue"), "\(typo)")

        let badEnvironment = try SettingSources(
            configPath: nil, catalog: Self.catalog, environment: ["TALLY_MAX_QUEUE": "many"])
        let notANumber = message { _ = try badEnvironment.resolve(nil, Self.maxQueue) }
        #expect(notANumber.contains("TALLY_MAX_QUEUE='many'") && notANumber.contains("--max-queue"), "\(notANumber)")
        let badFile = try SettingSources(
            configPath: try configFile(#"{"max-queue": "many"}"#), catalog: Self.catalog, environment: [:])
        #expect(throws: (any Error).self) { try badFile.resolve(nil, Self.maxQueue) }

        // A value that parses but that the setting refuses, from each source.
        let sources = try SettingSources(
            configPath: try configFile(#"{"heartbeat-interval": "5ms"}"#), catalog: Self.catalog,
            environment: ["TALLY_MAX_QUEUE": "0"])
        #expect(message { _ = try sources.resolve(0, Self.maxQueue) } == "--max-queue must be at least 1")
        let fromEnvironment = message { _ = try sources.resolve(nil, Self.maxQueue) }
        #expect(fromEnvironment == "--max-queue must be at least 1 (from environment variable TALLY_MAX_QUEUE='0')")
        let fromFile = message { _ = try sources.resolve(nil, Self.heartbeat) }
        #expect(fromFile.hasPrefix("--heartbeat-interval must be at least 10ms (from ") && fromFile.contains("5ms"))
        let endpoint = message { _ = try sources.resolve(["127.0.0.1:5555"], Self.bind) }
        #expect(endpoint.hasPrefix("--bind ") && endpoint.contains("tcp://127.0.0.1:5555"), "\(endpoint)")
    }

    @Test(arguments: [
        ("250ms", 250), ("2.5s", 2500), ("1m", 60_000), ("1500", 1500), ("0", 0), ("1m30s", 90_000),
        ("1h15m", 4_500_000), ("1h2m3s4ms", 3_723_004), ("1.5m", 90_000), ("2s500ms", 2500), (" 1M30S ", 90_000),
        ("0s", 0), ("1h", 3_600_000),
    ])
    func durations(text: String, milliseconds: Int64) throws {
        #expect(try #require(DurationArgument(argument: text)).duration == .milliseconds(milliseconds))
    }

    @Test func badDurations() {
        for text in [
            "", "-1s", "fast", "1x", "nan s", "30s1m", "1s1s", "1m 30s", "1m30", "m30s", "1..5s", ".s", "1e3s",
            "99999999999999999999h", "-1", "1m-30s", "s",
        ] {
            #expect(DurationArgument(argument: text) == nil, "\(text)")
        }
    }
}
