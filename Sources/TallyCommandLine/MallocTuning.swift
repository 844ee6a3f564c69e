import CLinux
import Foundation

/// Keeps request-sized memory in the process instead of handing it back to the kernel after every request.
///
/// glibc's malloc returns free memory eagerly: freed space at the top of a heap beyond 128 KiB goes back with
/// `madvise`, and every allocation over 128 KiB gets its own `mmap`, unmapped when freed. A request's body, its
/// parse tape and its decoded lists are allocated and freed once per request, so with the defaults each request
/// pays those system calls, then page faults to touch the memory again, and, with several I/O threads in one
/// process, a TLB shootdown across cores. Profiles of `streak.summary` under load showed about a tenth of the
/// worker's CPU there.
///
/// The limits chosen keep up to 16 MiB of free memory per heap and serve allocations up to 4 MiB from the heaps
/// (a body is at most 1 MiB by default), so memory held beyond the live requests stays bounded by a few heaps'
/// thresholds. An operator who sets glibc's malloc tunables (`GLIBC_TUNABLES=glibc.malloc.…`) keeps them.
package enum MallocTuning {
    package static let trimThreshold = 16 << 20
    package static let mmapThreshold = 4 << 20

    /// Applies the thresholds unless the environment already tunes malloc; returns whether it did.
    @discardableResult
    package static func keepRequestBuffers(
        environment: [String: String] = ProcessInfo.processInfo.environment
    )
        -> Bool
    {
        if environment["GLIBC_TUNABLES"]?.contains("glibc.malloc.") == true { return false }
        return tally_tune_malloc(trimThreshold, mmapThreshold) == 1
    }
}
