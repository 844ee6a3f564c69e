import Foundation

/// This process's CPU time, memory, file descriptors and start time as Linux reports them in `/proc`, read the way
/// the Prometheus client libraries read them (Go's `procfs`, Python's `prometheus_client`), so that the
/// `process_*` metrics mean here what they mean for every other exporter and the usual dashboards and alerts fit.
///
/// | field | from |
/// |---|---|
/// | `cpuSeconds` | `/proc/self/stat` utime + stime (fields 14, 15), in clock ticks (`sysconf(_SC_CLK_TCK)`) |
/// | `virtualMemoryBytes` | `/proc/self/stat` vsize (field 23) |
/// | `residentMemoryBytes` | `/proc/self/stat` rss (field 24), in pages (`sysconf(_SC_PAGESIZE)`) |
/// | `startTimeSeconds` | `/proc/self/stat` starttime (field 22), ticks after boot, plus `btime` of `/proc/stat` |
/// | `openFileDescriptors` | the entries of `/proc/self/fd` |
/// | `maxFileDescriptors` | the soft limit of "Max open files" in `/proc/self/limits` |
struct ProcessStatistics: Sendable, Equatable {
    /// User plus system CPU time since the process started.
    var cpuSeconds: Double
    var virtualMemoryBytes: Double
    var residentMemoryBytes: Double
    /// When the process started, in seconds since the Unix epoch (to the clock tick).
    var startTimeSeconds: Double
    var openFileDescriptors: Double
    /// The soft limit; `unlimited` reads as 2^64 − 1, as in Go's client.
    var maxFileDescriptors: Double

    /// The current figures of this process, or `nil` where there is no `/proc` to read them from (not Linux).
    static func current() -> ProcessStatistics? {
        guard let stat = readSmallFile("/proc/self/stat"), let systemStat = readSmallFile("/proc/stat"),
            let limits = readSmallFile("/proc/self/limits"), let descriptors = countDirectoryEntries("/proc/self/fd")
        else { return nil }
        return ProcessStatistics(
            stat: stat, systemStat: systemStat, limits: limits, openFileDescriptors: descriptors,
            ticksPerSecond: sysconf(Int32(_SC_CLK_TCK)), pageSize: sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Reads the figures out of the files' text; `nil` when one of them does not look as documented in proc(5).
    /// - Parameters:
    ///   - stat: `/proc/self/stat`.
    ///   - systemStat: `/proc/stat` (for `btime`, the boot time).
    ///   - limits: `/proc/self/limits`.
    init?(
        stat: String, systemStat: String, limits: String, openFileDescriptors: Int, ticksPerSecond: Int,
        pageSize: Int
    ) {
        // The command name (field 2) is in parentheses and may itself hold spaces and parentheses: the fields
        // that follow start after the last ")". Counted from there, field 3 (state) is index 0.
        guard ticksPerSecond > 0, let commandEnd = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: commandEnd)...].split(separator: " ", omittingEmptySubsequences: true)
        func field(_ number: Int) -> Double? {
            let index = number - 3
            return fields.indices.contains(index) ? Double(fields[index]) : nil
        }
        guard let userTicks = field(14), let systemTicks = field(15), let startTicks = field(22),
            let virtualBytes = field(23), let residentPages = field(24),
            let bootTime = Self.bootTime(in: systemStat), let maxFiles = Self.openFilesSoftLimit(in: limits)
        else { return nil }
        let ticks = Double(ticksPerSecond)
        cpuSeconds = (userTicks + systemTicks) / ticks
        virtualMemoryBytes = virtualBytes
        residentMemoryBytes = residentPages * Double(pageSize)
        startTimeSeconds = bootTime + startTicks / ticks
        self.openFileDescriptors = Double(openFileDescriptors)
        maxFileDescriptors = maxFiles
    }

    /// `btime N` of `/proc/stat`: when the system booted, in seconds since the Unix epoch.
    static func bootTime(in systemStat: String) -> Double? {
        for line in systemStat.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst("btime ".count).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    /// The soft limit of `Max open files  SOFT  HARD  files` in `/proc/self/limits`.
    static func openFilesSoftLimit(in limits: String) -> Double? {
        let label = "Max open files"
        for line in limits.split(separator: "\n") where line.hasPrefix(label) {
            guard let soft = line.dropFirst(label.count).split(separator: " ").first else { return nil }
            return soft == "unlimited" ? Double(UInt64.max) : Double(soft)
        }
        return nil
    }

    /// The whole of a `/proc` file. Their size reads as 0, so this reads until the end rather than by size.
    private static func readSmallFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Entries of a directory other than `.` and `..`; for `/proc/self/fd`, that includes the descriptor this
    /// listing holds open while it counts, as in the other client libraries.
    private static func countDirectoryEntries(_ path: String) -> Int? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != Array(".".utf8) && name != Array("..".utf8) { count += 1 }
        }
        return count
    }
}
