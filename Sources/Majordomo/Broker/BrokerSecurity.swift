import ZeroMQ

/// CURVE encryption and authentication for a broker.
///
/// The broker's ROUTER becomes a CURVE server; a ZAP handler on the broker's I/O thread asks `authenticator`
/// about every connecting key. The user id the authenticator gives a peer is its role: only peers whose role is
/// `workerRole` may send worker commands and only `clientRole` peers may send requests, so a leaked client key
/// cannot register a rogue worker that would receive other clients' requests.
package struct BrokerSecurity: Sendable {
    package var keyPair: CurveKeyPair
    package var authenticator: any ZAPAuthenticator
    package var zapDomain: String
    package var clientRole: String
    package var workerRole: String

    package init(
        keyPair: CurveKeyPair, authenticator: any ZAPAuthenticator, zapDomain: String = "tally",
        clientRole: String = "client", workerRole: String = "worker"
    ) {
        self.keyPair = keyPair
        self.authenticator = authenticator
        self.zapDomain = zapDomain
        self.clientRole = clientRole
        self.workerRole = workerRole
    }

    /// An allow-list of client and worker public keys.
    package static func allowList(keyPair: CurveKeyPair, clientKeys: [String], workerKeys: [String]) -> BrokerSecurity {
        var roles: [String: String] = [:]
        for key in clientKeys { roles[key] = "client" }
        for key in workerKeys { roles[key] = "worker" }
        return BrokerSecurity(keyPair: keyPair, authenticator: CurveAllowList(roles: roles))
    }

    /// Why a message's header does not fit its sender's role, or `nil` when it does.
    func roleViolation(frames: [Frame], metadata: String?) -> String? {
        guard frames.count >= 3 else { return nil }
        let role = metadata ?? ""
        switch frames[2] {
        case MDP.workerHeader where role != workerRole: return "worker command from a peer with role '\(role)'"
        case MDP.clientHeader where role != clientRole: return "client request from a peer with role '\(role)'"
        default: return nil
        }
    }
}
