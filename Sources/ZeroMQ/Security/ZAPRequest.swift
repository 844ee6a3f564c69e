/// A ZAP authentication request (ZeroMQ RFC 27), as libzmq sends it to the handler at `inproc://zeromq.zap.01`.
package struct ZAPRequest: Sendable, Hashable {
    /// Correlates the reply; echoed.
    package var requestID: Frame
    /// The server socket's `ZMQ_ZAP_DOMAIN`.
    package var domain: String
    /// The peer's IP address.
    package var address: String
    /// The peer's routing id, if it set one.
    package var identity: Frame
    /// `NULL`, `PLAIN` or `CURVE`.
    package var mechanism: String
    /// Mechanism data: for CURVE, the client's 32-byte public key.
    package var credentials: [Frame]

    /// The handler endpoint libzmq queries.
    package static let endpoint = "inproc://zeromq.zap.01"

    /// Decodes the request frames; `nil` if they are not a ZAP 1.0 request.
    package init?(frames: [Frame]) {
        guard frames.count >= 6, frames[0] == "1.0" else { return nil }
        requestID = frames[1]
        domain = frames[2].text ?? ""
        address = frames[3].text ?? ""
        identity = frames[4]
        mechanism = frames[5].text ?? ""
        credentials = Array(frames[6...])
    }

    /// The CURVE client public key in Z85, when the mechanism is CURVE.
    package var curvePublicKey: String? {
        guard mechanism == "CURVE", let key = credentials.first else { return nil }
        return CurveKeyPair.encode(key.bytes)
    }
}

/// A ZAP reply: allow with a user id (attached by libzmq to every message of the connection as `User-Id`), or deny.
package enum ZAPDecision: Sendable, Hashable {
    case allow(userID: String)
    case deny(reason: String)

    /// The reply frames for `request`.
    package func frames(for request: ZAPRequest) -> [Frame] {
        switch self {
        case .allow(let userID): ["1.0", request.requestID, "200", "OK", Frame(userID), .empty]
        case .deny(let reason): ["1.0", request.requestID, "400", Frame(reason), .empty, .empty]
        }
    }
}

/// Decides who may connect to a CURVE server socket.
package protocol ZAPAuthenticator: Sendable {
    func authenticate(_ request: ZAPRequest) -> ZAPDecision
}

/// Allows CURVE peers whose public key is listed, giving each the role of its list as user id; denies every other
/// key and every other mechanism (a plaintext peer never completes the handshake with a CURVE server anyway).
package struct CurveAllowList: ZAPAuthenticator {
    /// Z85 public key → role (the user id messages of that peer carry).
    package let roles: [String: String]

    package init(roles: [String: String]) {
        self.roles = roles
    }

    package func authenticate(_ request: ZAPRequest) -> ZAPDecision {
        guard let key = request.curvePublicKey else { return .deny(reason: "CURVE required") }
        guard let role = roles[key] else { return .deny(reason: "unknown key") }
        return .allow(userID: role)
    }
}
