import Foundation
import TallyTesting
import Testing

/// `tally-broker --transport-threads`: how many libzmq I/O threads do the broker's TCP work (docs/deploying.md, "How
/// many brokers and workers"), read from the running process's threads.
@Suite(.realProcesses) struct TransportThreadsTests {
    /// The names of the libzmq I/O threads of process `pid` (`ZMQbg/IO/0`, …).
    static func ioThreads(of pid: Int32) -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { task in
            let comm = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)) ?? ""
            let name = comm.trimmingCharacters(in: .whitespacesAndNewlines)
            return name.hasPrefix("ZMQbg/IO/") ? name : nil
        }.sorted()
    }

    /// The I/O threads of `pid` once each has named itself: libzmq starts them before the broker listens, but a
    /// thread takes its name when it first runs, which on a busy machine can come after "listening on".
    static func namedIOThreads(of pid: Int32, count: Int) async -> [String] {
        _ = await eventually { ioThreads(of: pid).count >= count }
        return ioThreads(of: pid)
    }

    @Test func theBrokerRunsAsManyIOThreadsAsAskedAndOnePerFourCoresByDefault() async throws {
        let asked = try await TallyCluster.startBroker(
            bind: "tcp://127.0.0.1:0", arguments: ["--transport-threads", "3"])
        #expect(
            await Self.namedIOThreads(of: asked.processIdentifier, count: 3) == [
                "ZMQbg/IO/0", "ZMQbg/IO/1", "ZMQbg/IO/2",
            ])
        asked.terminate()
        await asked.waitForExit()

        let byDefault = try await TallyCluster.startBroker(bind: "tcp://127.0.0.1:0")
        let expected = max(1, ProcessInfo.processInfo.activeProcessorCount / 4)
        #expect(await Self.namedIOThreads(of: byDefault.processIdentifier, count: expected).count == expected)
        byDefault.terminate()
        await byDefault.waitForExit()
    }
}
