extension Socket {
    /// Makes this socket a CURVE server: peers must know `keyPair.publicKey`, and every handshake is checked by
    /// the ZAP handler of the socket's context under `zapDomain`.
    /// - Important: call before `bind`, and bind the ZAP handler (see `ZAPRequest.endpoint`) first: libzmq lets
    ///   every CURVE client in when no handler is bound.
    package func makeCurveServer(_ keyPair: CurveKeyPair, zapDomain: String) throws(ZMQError) {
        try set(.zapDomain, zapDomain)
        try set(.curveServer, true)
        try set(.curveSecretKey, keyPair.secretKey)
    }

    /// Makes this socket a CURVE client of the server whose public key is `serverKey`.
    /// - Important: call before `connect`.
    package func makeCurveClient(_ keyPair: CurveKeyPair, serverKey: String) throws(ZMQError) {
        try set(.curveServerKey, serverKey)
        try set(.curvePublicKey, keyPair.publicKey)
        try set(.curveSecretKey, keyPair.secretKey)
    }
}
