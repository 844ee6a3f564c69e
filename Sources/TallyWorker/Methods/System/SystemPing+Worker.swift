import Foundation
import TallyProtocol

extension MethodRegistry {
    /// Registers `system.*`: answered on every service.
    public mutating func registerSystemMethods(identity: WorkerIdentity) {
        register(SystemPing.self) { _, context in
            SystemPing.Result(
                serverVersion: identity.version,
                protocolVersions: ProtocolVersion.supported,
                uptimeSeconds: FigureRounding.rounded(
                    context.receivedAt.timeIntervalSince(identity.startedAt), places: 3),
                service: context.service,
                worker: identity.name,
                connection: context.connection)
        }
    }
}
