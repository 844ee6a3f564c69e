import ArgumentParser
import Foundation
import ZeroMQ

struct Keys: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Generate a CURVE key pair for a broker, worker or client.",
        discussion: """
            Writes NAME.key (the secret key, mode 0600) and NAME.pub (the public key) in Z85 text. Give the broker \
            its .key with --curve-secret-key and list the .pub files of workers and clients in its \
            --curve-worker-keys and --curve-client-keys files; give workers and clients their own .key and the \
            broker's .pub with --curve-server-key. Without --out, prints both keys. --json prints {"public_key", \
            "secret_key"}, or with --out {"public_key", "public_key_file", "secret_key_file"}.
            """)

    @Option(help: "Path prefix of the files to write, e.g. /etc/tally/broker.")
    var out: String?

    @OptionGroup var output: OutputOptions

    /// `--json`'s document: the secret key itself only when no file holds it.
    struct Report: Encodable {
        var publicKey: String
        var secretKey: String?
        var publicKeyFile: String?
        var secretKeyFile: String?

        enum CodingKeys: String, CodingKey {
            case publicKey = "public_key"
            case secretKey = "secret_key"
            case publicKeyFile = "public_key_file"
            case secretKeyFile = "secret_key_file"
        }
    }

    func run() throws {
        let pair = try CurveKeyPair.generate()
        guard let out else {
            if output.json {
                Output.printJSON(Report(publicKey: pair.publicKey, secretKey: pair.secretKey))
            } else {
                print("public: \(pair.publicKey)")
                print("secret: \(pair.secretKey)")
            }
            return
        }
        let secret = out + ".key"
        let manager = FileManager.default
        guard !manager.fileExists(atPath: secret) else {
            throw ValidationError("\(secret) exists; not overwriting a key")
        }
        guard
            manager.createFile(
                atPath: secret, contents: Data("\(pair.secretKey)\n".utf8), attributes: [.posixPermissions: 0o600])
        else {
            printError("cannot write \(secret)")
            throw Status.localError
        }
        do {
            try Data("\(pair.publicKey)\n".utf8).write(to: URL(fileURLWithPath: out + ".pub"))
        } catch {
            printError("cannot write \(out).pub: \(error.localizedDescription)")
            throw Status.localError
        }
        if output.json {
            Output.printJSON(Report(publicKey: pair.publicKey, publicKeyFile: out + ".pub", secretKeyFile: secret))
        } else {
            print("wrote \(secret) (secret, keep it private) and \(out).pub (public): \(pair.publicKey)")
        }
    }
}
