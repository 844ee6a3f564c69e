import ArgumentParser
import Foundation
import TallyGateway

/// `tally-gateway api-key --name NAME`: a new random API key, and the line that lets it call.
struct APIKey: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api-key",
        abstract: "Make an API key: prints the key (give it to the caller, once) and its line for --api-keys.",
        discussion: """
            The key is 32 random bytes from the system's generator, in base64url (43 characters) after 'tally_'. \
            The line holds only its SHA-256 digest: append it to the file --api-keys names, and restart the \
            gateway. A key made elsewhere works the same: its line is NAME sha256:$(printf %s "$KEY" | sha256sum).
            """)

    @Option(help: "The key's name in the file and in the gateway's log lines (letters, digits, '.', '_', '-').")
    var name: String

    func validate() throws {
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) })
        else { throw ValidationError("--name must be letters, digits, '.', '_' or '-'") }
    }

    func run() throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let key =
            "tally_"
            + Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        print("key:  \(key)")
        print("line: \(name) sha256:\(SHA256.hexDigest(Array(key.utf8)))")
    }
}
