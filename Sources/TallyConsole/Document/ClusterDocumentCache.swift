import Foundation
import TallyJSONCoding

/// The console's document as JSON bytes, built at most once per `interval` however many viewers poll: a request
/// within the interval gets the bytes already built, and requests that arrive while a build is under way wait for
/// that build instead of starting their own. A build asks the broker's I/O thread for a detailed snapshot, which
/// walks every connection; this keeps that to once a second whatever the number of open pages and `tally top`s.
package actor ClusterDocumentCache {
    package let interval: Duration
    private let build: @Sendable () async -> [UInt8]
    private let clock = ContinuousClock()
    private var latest: (bytes: [UInt8], builtAt: ContinuousClock.Instant)?
    private var building: Task<[UInt8], Never>?
    /// Builds so far, for tests.
    package private(set) var builds = 0

    /// - Parameter build: makes the document's bytes; called at most once per `interval`, one call at a time.
    package init(interval: Duration, build: @escaping @Sendable () async -> [UInt8]) {
        self.interval = interval
        self.build = build
    }

    /// The latest document, built now if the last one is older than `interval`.
    package func document() async -> [UInt8] {
        if let latest, clock.now - latest.builtAt < interval { return latest.bytes }
        if let building { return await building.value }
        let task = Task { await build() }
        building = task
        builds += 1
        let bytes = await task.value
        latest = (bytes, clock.now)
        building = nil
        return bytes
    }
}

extension ClusterDocument {
    /// The document as JSON, every member written (`null` where a value is absent), as the schema says.
    package func jsonBytes() -> [UInt8] {
        var encoder = TallyJSONEncoder()
        encoder.nilMembers = .null
        // Strings, integers and finite numbers only: encoding cannot fail, but a failure must still be JSON.
        return (try? encoder.encodeToBytes(self))
            ?? Array(#"{"version":1,"error":"the document could not be encoded"}"#.utf8)
    }
}
