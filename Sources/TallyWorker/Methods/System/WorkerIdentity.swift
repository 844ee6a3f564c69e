import Foundation
import TallyCalendar

/// Who a worker process is, for `system.ping`.
package struct WorkerIdentity: Sendable, Hashable {
    /// `host/pid`.
    package var name: String
    /// The build's version.
    package var version: String
    /// When the process started.
    package var startedAt: Instant

    package init(name: String, version: String, startedAt: Instant = .now) {
        self.name = name
        self.version = version
        self.startedAt = startedAt
    }

    /// This process: `hostname/pid`.
    package static func current(version: String) -> WorkerIdentity {
        WorkerIdentity(
            name: "\(ProcessInfo.processInfo.hostName)/\(ProcessInfo.processInfo.processIdentifier)", version: version)
    }
}
