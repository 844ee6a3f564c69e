import Foundation
import TallyCommandLine
import Testing

@Suite struct SettingSourcesTests {
    func configFile(_ json: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tally-config-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: url)
        return url.path
    }

    @Test func precedenceIsFlagThenEnvironmentThenFileThenDefault() throws {
        let path = try configFile(
            #"{"max-queue": 300, "heartbeat-interval": "750ms", "bind": ["tcp://a:1", "tcp://b:2"]}"#)
        let keys: Set<String> = ["max-queue", "heartbeat-interval", "bind", "log-level"]
        let fileOnly = try SettingSources(configPath: path, knownKeys: keys, environment: [:])
        #expect(try fileOnly.resolve(nil, "max-queue", default: 10) == 300)
        #expect(
            try fileOnly.resolve(nil, "heartbeat-interval", default: DurationArgument(.seconds(1))).duration
                == .milliseconds(750))
        #expect(try fileOnly.resolve([], "bind", default: ["x"]) == ["tcp://a:1", "tcp://b:2"])
        #expect(try fileOnly.resolve(nil, "log-level", default: "info") == "info")

        let withEnvironment = try SettingSources(
            configPath: path, knownKeys: keys,
            environment: ["TALLY_MAX_QUEUE": "20", "TALLY_BIND": "tcp://c:3, tcp://d:4"])
        #expect(try withEnvironment.resolve(nil, "max-queue", default: 10) == 20)
        #expect(try withEnvironment.resolve([], "bind", default: ["x"]) == ["tcp://c:3", "tcp://d:4"])
        #expect(try withEnvironment.resolve(5, "max-queue", default: 10) == 5)
        #expect(try withEnvironment.resolve(["tcp://e:5"], "bind", default: ["x"]) == ["tcp://e:5"])
    }

    @Test func configPathMayComeFromTheEnvironment() throws {
        let path = try configFile(#"{"max-queue": 42}"#)
        let sources = try SettingSources(configPath: nil, knownKeys: ["max-queue"], environment: ["TALLY_CONFIG": path])
        #expect(try sources.resolve(nil, "max-queue", default: 1) == 42)
    }

    @Test func mistakesStopTheProcessWithAClearMessage() throws {
        #expect(throws: (any Error).self) { try SettingSources(configPath: "/nonexistent/tally.json", knownKeys: []) }
        #expect(throws: (any Error).self) { try SettingSources(configPath: try configFile("[1, 2]"), knownKeys: []) }
        #expect(throws: (any Error).self) {
            try SettingSources(configPath: try configFile(#"{"max-qeue": 1}"#), knownKeys: ["max-queue"])
        }
        let badEnvironment = try SettingSources(
            configPath: nil, knownKeys: [], environment: ["TALLY_MAX_QUEUE": "many"])
        #expect(throws: (any Error).self) { try badEnvironment.resolve(nil, "max-queue", default: 1) }
        let badFile = try SettingSources(
            configPath: try configFile(#"{"max-queue": "many"}"#), knownKeys: ["max-queue"], environment: [:])
        #expect(throws: (any Error).self) { try badFile.resolve(nil, "max-queue", default: 1) }
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
