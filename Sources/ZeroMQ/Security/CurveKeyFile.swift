import Foundation

/// Reads and writes CURVE keys as small text files, the form operators keep them in:
/// a secret-key file holds one Z85 secret key; a public-key list holds one Z85 public key per line. Blank lines,
/// lines starting with `#`, and text after a key separated by whitespace and `#` are comments (`#` is itself a Z85
/// character, so it only starts a comment at the start of a line or after whitespace).
package enum CurveKeyFile {
    package struct Problem: Error, CustomStringConvertible {
        package let description: String
    }

    /// The key pair whose secret key is in `path`.
    package static func readSecret(_ path: String) throws -> CurveKeyPair {
        let keys = try readKeys(path)
        guard keys.count == 1 else { throw Problem(description: "\(path) must hold exactly one secret key") }
        do {
            return try CurveKeyPair(secretKey: keys[0])
        } catch {
            throw Problem(description: "\(path): not a CURVE secret key")
        }
    }

    /// Every public key listed in `path`.
    package static func readPublicKeys(_ path: String) throws -> [String] {
        let keys = try readKeys(path)
        guard !keys.isEmpty else { throw Problem(description: "\(path) lists no keys") }
        return keys
    }

    /// One Z85 public key given inline, or read from a file holding exactly one.
    package static func publicKey(_ keyOrPath: String) throws -> String {
        if CurveKeyPair.isValidKey(keyOrPath) { return keyOrPath }
        let keys = try readPublicKeys(keyOrPath)
        guard keys.count == 1 else { throw Problem(description: "\(keyOrPath) must hold exactly one public key") }
        return keys[0]
    }

    static func readKeys(_ path: String) throws -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Problem(description: "cannot read \(path)")
        }
        var keys: [String] = []
        for (number, rawLine) in String(decoding: data, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false
        ).enumerated() {
            let tokens = rawLine.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            guard let first = tokens.first else { continue }
            if CurveKeyPair.isValidKey(String(first)), tokens.count == 1 || tokens[1].hasPrefix("#") {
                keys.append(String(first))
            } else if !first.hasPrefix("#") {
                throw Problem(description: "\(path):\(number + 1): not a 40-character Z85 key")
            }
        }
        return keys
    }
}
