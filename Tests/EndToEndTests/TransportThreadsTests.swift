import Foundation
import TallyTesting
import Testing

/// `tally-broker --transport-threads`: how many libzmq I/O threads do the broker's TCP work (README "More cores than
/// one broker feeds"), read from the running process's threads.
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

    @Test func theBrokerRunsAsManyIOThreadsAsAskedAndOnePerFourCoresByDefault() async throws {
        let asked = try await TallyCluster.startBroker(
            bind: "tcp://127.0.0.1:0", arguments: ["--transport-threads", "3"])
        #expect(Self.ioThreads(of: asked.processIdentifier) == ["ZMQbg/IO/0", "ZMQbg/IO/1", "ZMQbg/IO/2"])
        asked.terminate()
        await asked.waitForExit()

        let byDefault = try await TallyCluster.startBroker(bind: "tcp://127.0.0.1:0")
        let expected = max(1, ProcessInfo.processInfo.activeProcessorCount / 4)
        #expect(Self.ioThreads(of: byDefault.processIdentifier).count == expected)
        byDefault.terminate()
        await byDefault.waitForExit()
    }
}
