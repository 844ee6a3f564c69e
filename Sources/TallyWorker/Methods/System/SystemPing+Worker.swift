import Foundation
import TallyProtocol

extension MethodRegistry {
    /// Registers `system.*`, answered on every service: `system.ping`, and `system.describe`, which is added when
    /// the registry freezes (`dispatcher(limits:)`) so that it lists every method registered by then.
    package mutating func registerSystemMethods(identity: WorkerIdentity) {
        register(SystemPing.self) { _, context in
            SystemPing.Result(
                serverVersion: identity.version,
                protocolVersions: ProtocolVersion.supported,
                uptimeSeconds: FigureRounding.rounded(
                    context.receivedAt.duration(since: identity.startedAt) / .seconds(1), places: 3),
                service: context.service,
                worker: identity.name,
                connection: context.connection)
        }
        describingWorker = identity
    }

    /// Registers `system.describe` over the methods registered so far, and itself.
    mutating func registerDescribe(of identity: WorkerIdentity) {
        let others = self
        register(SystemDescribe.self) { _, context in
            SystemDescribe.Result(
                service: context.service,
                methods: (others.descriptions(on: context.service) + [SystemDescribe.Method(SystemDescribe.self)])
                    .sorted { $0.name < $1.name },
                protocolVersions: ProtocolVersion.supported,
                requestSchema: ProtocolSchema.request,
                responseSchema: ProtocolSchema.response,
                serverVersion: identity.version,
                worker: identity.name)
        }
    }
}
