import Synchronization

/// The v1 ids the gateway gives the requests it sends: unique among this process's calls in flight, whatever ids
/// its callers chose, because TallyClient matches each reply to its call by id, and two callers of one gateway are
/// free to pick the same one. `gw-PREFIX-N`: the random prefix tells this process's requests from another
/// gateway's in the brokers' and workers' logs.
final class RequestIDs: Sendable {
    let prefix: String
    private let next = Atomic<UInt64>(0)

    init() {
        prefix = "gw-" + String(UInt32.random(in: 0...UInt32.max), radix: 36) + "-"
    }

    func make() -> String {
        prefix + String(next.add(1, ordering: .relaxed).newValue)
    }
}
