import ArgumentParser
import Majordomo
import ZeroMQ

/// The CURVE settings of a broker's peers (workers and clients): their own secret key and the broker's public key.
package enum CurveClientOptions {
    /// The socket setup that makes connections CURVE clients, or `nil` (plaintext) when neither is given.
    package static func socketSetup(secretKey: String, serverKey: String) throws -> SocketSetup? {
        guard let keys = try given(secretKey: secretKey, serverKey: serverKey) else { return nil }
        let keyPair: CurveKeyPair
        let server: String
        do {
            keyPair = try CurveKeyFile.readSecret(keys.secretKey)
            server = try CurveKeyFile.publicKey(keys.serverKey)
        } catch {
            throw ValidationError("\(error)")
        }
        return { socket throws(ZMQError) in try socket.makeCurveClient(keyPair, serverKey: server) }
    }

    /// Both settings when both are given, `nil` (plaintext) when neither is: the rule of every program that
    /// connects to brokers, `tally` and `tally-worker` alike, whatever each then makes of the keys.
    /// - Throws: `ValidationError` when only one is.
    package static func given(secretKey: String, serverKey: String) throws -> (secretKey: String, serverKey: String)? {
        guard !secretKey.isEmpty || !serverKey.isEmpty else { return nil }
        guard !secretKey.isEmpty, !serverKey.isEmpty else {
            throw ValidationError("CURVE needs --curve-secret-key and --curve-server-key together")
        }
        return (secretKey, serverKey)
    }
}
