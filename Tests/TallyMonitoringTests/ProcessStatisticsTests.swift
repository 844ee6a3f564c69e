import Foundation
import Testing

@testable import TallyMonitoring

/// `/proc` read as proc(5) documents it and as the Prometheus client libraries read it.
@Suite struct ProcessStatisticsTests {
    /// A command name with spaces and parentheses: the fields after it must still be found.
    static let stat =
        "4242 (tally (worker) 1) S 1 4242 4242 0 -1 4194560 1000 0 0 0 250 125 0 0 20 0 9 0 727090 558743552 9482 "
        + "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n"
    static let systemStat = "cpu  1 2 3 4\nintr 12345\nctxt 678\nbtime 1795490292\nprocesses 999\n"
    static let limits = """
        Limit                     Soft Limit           Hard Limit           Units
        Max cpu time              unlimited            unlimited            seconds
        Max open files            20000                524288               files
        Max locked memory         8388608              8388608              bytes

        """

    @Test func readsEachFigureFromItsField() throws {
        let statistics = try #require(
            ProcessStatistics(
                stat: Self.stat, systemStat: Self.systemStat, limits: Self.limits, openFileDescriptors: 37,
                ticksPerSecond: 100, pageSize: 4096))
        #expect(statistics.cpuSeconds == 3.75, "utime 250 + stime 125 ticks at 100 per second")
        #expect(statistics.virtualMemoryBytes == 558_743_552)
        #expect(statistics.residentMemoryBytes == 9482 * 4096)
        #expect(statistics.startTimeSeconds == 1_795_490_292 + 7270.9, "boot time plus 727090 ticks")
        #expect(statistics.openFileDescriptors == 37)
        #expect(statistics.maxFileDescriptors == 20000, "the soft limit, not the hard one")
    }

    @Test func anUnlimitedDescriptorLimitReadsAsTheLargestValueAsInGosClient() {
        let limits = "Max open files            unlimited            unlimited            files\n"
        #expect(ProcessStatistics.openFilesSoftLimit(in: limits) == Double(UInt64.max))
    }

    @Test func textThatIsNotWhatProcDocumentsReadsAsNothing() {
        func read(
            stat: String = Self.stat, systemStat: String = Self.systemStat, limits: String = Self.limits
        )
            -> ProcessStatistics?
        {
            ProcessStatistics(
                stat: stat, systemStat: systemStat, limits: limits, openFileDescriptors: 1, ticksPerSecond: 100,
                pageSize: 4096)
        }
        #expect(read(stat: "4242 (tally) S 1 2 3") == nil, "too few fields")
        #expect(read(stat: "4242 tally S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23") == nil)
        #expect(read(systemStat: "cpu 1 2 3\n") == nil, "no btime")
        #expect(read(limits: "Max cpu time unlimited unlimited seconds\n") == nil, "no open files limit")
    }

    @Test func thisProcessIsReadPlausibly() throws {
        let now = Date().timeIntervalSince1970
        let statistics = try #require(ProcessStatistics.current())
        #expect(statistics.startTimeSeconds <= now + 1)
        #expect(statistics.startTimeSeconds > now - 86_400, "the test process started today")
        #expect(statistics.cpuSeconds > 0)
        #expect(statistics.residentMemoryBytes > 1_048_576)
        #expect(statistics.virtualMemoryBytes >= statistics.residentMemoryBytes)
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        #expect(statistics.maxFileDescriptors == Double(limit.rlim_cur))
        #expect(statistics.openFileDescriptors >= 3 && statistics.openFileDescriptors <= statistics.maxFileDescriptors)
    }

    @Test func openDescriptorsAreCounted() throws {
        let before = try #require(ProcessStatistics.current()).openFileDescriptors
        let opened = (0..<200).map { _ in open("/dev/null", O_RDONLY | O_CLOEXEC) }
        defer { for descriptor in opened where descriptor >= 0 { close(descriptor) } }
        #expect(opened.allSatisfy { $0 >= 0 })
        let after = try #require(ProcessStatistics.current()).openFileDescriptors
        // Other tests in this process open and close descriptors meanwhile: a margin, not an exact count.
        #expect(after - before >= 150)
    }
}
