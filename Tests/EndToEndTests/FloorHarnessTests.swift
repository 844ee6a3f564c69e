import Foundation
import TallyTesting
import Testing

/// Keeps `Benchmarks/run-floor.sh` working: its C programs build against libzmq, the floor (floor-broker and its
/// echo workers) and this build's tally-broker and tally-workers each answer every request of floor-client exactly
/// once and never with an error, and the JSON it writes has the figures and ratios Benchmarks/README.md quotes.
/// One round at 8 in flight, a second of load per phase, with this build's binaries; nothing about speed is
/// asserted, which is the script's to measure on a quiet machine.
@Suite(.realProcesses(slots: 3)) struct FloorHarnessTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theFloorAndTallyAnswerEveryRequestOfTheHarnessExactlyOnce() async throws {
        let json = try await Self.run(["--bin", TallyBinaries.directory.path])
        let medians = try #require(json["medians"] as? [String: [String: Any]])
        #expect(Set(medians.keys) == ["floor", "tally"])
        let ratios = try #require(json["ratios"] as? [String: [String: Any]])
        #expect(ratios["8"]?["tally_throughput_per_floor"] != nil, "\(ratios)")
    }

    /// `--tally LABEL=DIR`, twice: a change measured before and after in the same run, each variant in Tally's
    /// place, with its ratios to the floor and the second's to the first.
    @Test func twoBuildsOfTallyTakeTurnsWithTheFloor() async throws {
        let directory = TallyBinaries.directory.path
        let json = try await Self.run(["--tally", "before=\(directory)", "--tally", "after=\(directory)"])
        let medians = try #require(json["medians"] as? [String: [String: Any]])
        #expect(Set(medians.keys) == ["floor", "tally:before", "tally:after"])
        let ratios = try #require(json["ratios"] as? [String: [String: Any]])["8"] ?? [:]
        for key in [
            "tally_before_broker_cpu_per_floor", "tally_after_broker_cpu_per_floor", "after_broker_us_per_before",
        ] {
            #expect(ratios[key] != nil, "\(key) in \(ratios.keys.sorted())")
        }
    }

    /// The CURVE systems: the floor and Tally with every connection encrypted, on keys the harness makes, each
    /// request answered exactly once as without CURVE, and the ratios of the one to the other.
    @Test func theFloorAndTallyWithCurveAnswerEveryRequestExactlyOnce() async throws {
        let json = try await Self.run(
            ["--bin", TallyBinaries.directory.path], systems: "floor,tally,floor-curve,tally-curve")
        let medians = try #require(json["medians"] as? [String: [String: Any]])
        #expect(Set(medians.keys) == ["floor", "tally", "floor-curve", "tally-curve"])
        let ratios = try #require(json["ratios"] as? [String: [String: Any]])["8"] ?? [:]
        for key in [
            "tally_curve_broker_cpu_per_floor_curve", "floor_curve_broker_cpu_per_floor",
            "tally_curve_broker_cpu_per_tally",
        ] {
            #expect(ratios[key] != nil, "\(key) in \(ratios.keys.sorted())")
        }
    }

    /// Runs the harness for one round at 8 in flight, a second per phase, with `arguments` saying which Tally, and
    /// checks every phase: every request answered exactly once, never with an error. Returns its JSON.
    static func run(_ arguments: [String], systems: String = "floor,tally") async throws -> [String: Any] {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tally-floor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let report = scratch.appendingPathComponent("run-floor.json")
        let run = try await ShortCommand.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "bash", repositoryRoot.appendingPathComponent("Benchmarks/run-floor.sh").path,
                "--systems", systems, "--rounds", "1", "--seconds", "1", "--warm-up", "0",
                "--in-flight", "8", "--no-build", "--build-dir", scratch.path, "--json", report.path,
            ] + arguments,
            timeout: .seconds(180))
        #expect(run.succeeded, "run-floor.sh failed:\n\(run.output)\n\(run.errorOutput.suffix(3000))")

        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: report))
        let json = try #require(object as? [String: Any])
        #expect(json["failed_phases"] as? Int == 0)
        let phases = try #require(json["phases"] as? [[String: Any]])
        let systems = (json["medians"] as? [String: Any])?.count ?? 0
        #expect(phases.count == systems && systems >= 2, "one round of each system at 8 in flight")
        for phase in phases {
            let name = "\(phase["system"] ?? "?") at \(phase["in_flight"] ?? "?") in flight"
            let client = try #require(phase["client"] as? [String: Any], "\(name): no load report")
            let sent = try #require(client["sent"] as? Int, "\(name)")
            #expect(sent > 0, "\(name)")
            #expect(client["replies"] as? Int == sent, "\(name): every request answered: \(client)")
            for count in ["unanswered", "unexpected", "malformed", "error_replies"] {
                #expect(client[count] as? Int == 0, "\(name): \(count) in \(client)")
            }
            #expect((phase["broker_ticks"] as? Int).map { $0 >= 0 } == true, "\(name)")
        }
        return json
    }
}
