import ArgumentParser
import Majordomo
import TallyClient
import ZeroMQ

/// The settings of a program that connects to brokers as a CURVE client: its own secret key and the broker's
/// public key. Each program declares them in its catalog, in its own words.
package protocol CurveClientSettings {
    static var curveSecretKey: Setting<String> { get }
    static var curveServerKey: Setting<String> { get }
}

/// `--curve-secret-key` and `--curve-server-key` of a broker's peers (workers and clients), as `Settings` declares
/// them: both given, connections are CURVE clients; neither, plaintext; one alone stops the program at start.
package struct CurveClientOptions<Settings: CurveClientSettings>: ParsableArguments {
    @Option(name: Settings.curveSecretKey.flag, help: Settings.curveSecretKey.help)
    var curveSecretKey: String?

    @Option(name: Settings.curveServerKey.flag, help: Settings.curveServerKey.help)
    var curveServerKey: String?

    package init() {}

    /// The settings these options read, in their order, for the catalog of every program that takes them.
    package static var settings: [SettingDocumentation] {
        [Settings.curveSecretKey.documentation, Settings.curveServerKey.documentation]
    }

    /// Both settings when both are given, `nil` (plaintext) when neither is: the rule of every program that
    /// connects to brokers, whatever each then makes of the keys.
    /// - Throws: `ValidationError` when only one is given, or for a value the settings refuse.
    package func keys(_ settings: SettingSources) throws -> (secretKey: String, serverKey: String)? {
        let secretKey = try settings.resolve(curveSecretKey, Settings.curveSecretKey)
        let serverKey = try settings.resolve(curveServerKey, Settings.curveServerKey)
        guard !secretKey.isEmpty || !serverKey.isEmpty else { return nil }
        guard !secretKey.isEmpty, !serverKey.isEmpty else {
            throw ValidationError("CURVE needs --curve-secret-key and --curve-server-key together")
        }
        return (secretKey, serverKey)
    }

    /// A client's CURVE security from the key files, or `nil` (plaintext).
    /// - Throws: as ``keys(_:)`` does; `TallyClientError` (`invalid_configuration`) for keys that cannot be used.
    package func security(_ settings: SettingSources) throws -> TallyClientSecurity? {
        guard let keys = try keys(settings) else { return nil }
        return try .curve(clientSecretKeyFile: keys.secretKey, serverPublicKey: keys.serverKey)
    }

    /// The socket setup that makes a worker's connections CURVE clients, or `nil` (plaintext).
    /// - Throws: `ValidationError`, for keys that cannot be used too.
    package func socketSetup(_ settings: SettingSources) throws -> SocketSetup? {
        guard let keys = try keys(settings) else { return nil }
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
}
