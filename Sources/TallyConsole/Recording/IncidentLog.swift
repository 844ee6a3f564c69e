import Foundation

/// What went wrong lately, newest first, bounded, with repeats counted on one entry.
///
/// An incident is known by its kind, service and reason (`overloaded` on `tally.history` because its queue is
/// full): one that happens again is counted and moved to the front, so a flood of the same failure is one line
/// with a count, not a list flushed of everything else, and memory stays at `capacity` entries whatever happens.
/// The newest entry is checked first, so a flood costs a comparison per event, not a search.
struct IncidentLog: Sendable {
    /// Entries kept: the oldest goes when a new kind of incident comes.
    static let capacity = 64

    struct Key: Hashable, Sendable {
        let kind: String
        /// `nil`: a service no worker registered (names only clients used, bounded only by the broker's table).
        let service: String?
        let reason: String
    }

    struct Entry: Sendable, Hashable {
        let key: Key
        /// One occurrence in words: the one that last made the entry the newest (repeats in a row keep it, so
        /// that a flood builds no text).
        var detail: String
        var count: Int
        let first: Date
        var last: Date
    }

    /// Newest first.
    private(set) var entries: [Entry] = []

    mutating func record(_ key: Key, detail: @autoclosure () -> String, at time: Date) {
        if let newest = entries.first, newest.key == key {
            entries[0].count += 1
            entries[0].last = time
            return
        }
        if let index = entries.firstIndex(where: { $0.key == key }) {
            var entry = entries.remove(at: index)
            entry.count += 1
            entry.last = time
            entry.detail = detail()
            entries.insert(entry, at: 0)
            return
        }
        if entries.count >= Self.capacity { entries.removeLast() }
        entries.insert(Entry(key: key, detail: detail(), count: 1, first: time, last: time), at: 0)
    }
}
