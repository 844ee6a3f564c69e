import ArgumentParser
import Majordomo
import ZeroMQ

/// The CURVE settings of a broker's peers (workers and clients): their own secret key and the broker's public key.
public enum CurveClientOptions {
    /// The socket setup that makes connections CURVE clients, or `nil` (plaintext) when neither is given.
    public static func socketSetup(secretKey: String, serverKey: String) throws -> SocketSetup? {
        guard !secretKey.isEmpty || !serverKey.isEmpty else { return nil }
        guard !secretKey.isEmpty, !serverKey.isEmpty else {
            throw ValidationError("CURVE needs --curve-secret-key and --curve-server-key together")
        }
        let keyPair: CurveKeyPair
        let server: String
        do {
            keyPair = try CurveKeyFile.readSecret(secretKey)
            server = try CurveKeyFile.publicKey(serverKey)
        } catch {
            throw ValidationError("\(error)")
        }
        return { socket throws(ZMQError) in try socket.makeCurveClient(keyPair, serverKey: server) }
    }
}
