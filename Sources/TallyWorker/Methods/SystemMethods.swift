import Foundation
import TallyProtocol

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

extension MethodRegistry {
    /// Registers `system.*`: answered on every service.
    public mutating func registerSystemMethods(identity: WorkerIdentity) {
        register(SystemPing.self) { _, context in
            SystemPing.Result(
                serverVersion: identity.version,
                protocolVersions: ProtocolVersion.supported,
                uptimeSeconds: TallyJSON.rounded(context.receivedAt.timeIntervalSince(identity.startedAt), places: 3),
                service: context.service,
                worker: identity.name,
                connection: context.connection)
        }
    }
}
