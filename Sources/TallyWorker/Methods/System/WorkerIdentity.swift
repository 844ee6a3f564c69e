import Foundation

/// Who a worker process is, for `system.ping`.
public struct WorkerIdentity: Sendable, Hashable {
    /// `host/pid`.
    public var name: String
    /// The build's version.
    public var version: String
    /// When the process started.
    public var startedAt: Date

    public init(name: String, version: String, startedAt: Date = Date()) {
        self.name = name
        self.version = version
        self.startedAt = startedAt
    }

    /// This process: `hostname/pid`.
    public static func current(version: String) -> WorkerIdentity {
        WorkerIdentity(
            name: "\(ProcessInfo.processInfo.hostName)/\(ProcessInfo.processInfo.processIdentifier)", version: version)
    }
}
