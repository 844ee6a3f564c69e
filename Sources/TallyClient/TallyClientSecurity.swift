import ZeroMQ

/// How a client's connections to its brokers are protected.
public enum TallyClientSecurity: Sendable, Hashable {
    /// No encryption: trusted networks only.
    case plaintext
    /// CurveZMQ: the broker is authenticated by its public key and the client by its key pair (which the broker
    /// must list among its clients). Keys are Z85 text, 40 characters.
    case curve(serverPublicKey: String, clientPublicKey: String, clientSecretKey: String)

    /// CURVE from files as `tally keys` writes them: the client's secret-key file, and the broker's public key or a
    /// file holding it.
    /// - Throws: `TallyClientError` (`invalid_configuration`) naming the file that cannot be read or holds no key.
    public static func curve(clientSecretKeyFile: String, serverPublicKey: String) throws(TallyClientError) -> Self {
        do {
            let keys = try CurveKeyFile.readSecret(clientSecretKeyFile)
            let server = try CurveKeyFile.publicKey(serverPublicKey)
            return .curve(serverPublicKey: server, clientPublicKey: keys.publicKey, clientSecretKey: keys.secretKey)
        } catch {
            throw TallyClientError(.invalidConfiguration, "CURVE keys: \(error)")
        }
    }

    /// What the socket needs before it connects.
    func apply(to socket: Socket) throws(ZMQError) {
        guard case .curve(let server, let publicKey, let secretKey) = self else { return }
        try socket.set(.curveServerKey, server)
        try socket.set(.curvePublicKey, publicKey)
        try socket.set(.curveSecretKey, secretKey)
    }
}
