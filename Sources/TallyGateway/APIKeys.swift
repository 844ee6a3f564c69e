import Foundation

/// The API keys a gateway takes (`--api-keys FILE`): the SHA-256 digest of each key, with a name for the log.
///
/// ```
/// # name   digest (printf %s "$KEY" | sha256sum, or tally-gateway api-key)
/// billing  sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
/// ```
///
/// A request's `Authorization: Bearer KEY` is hashed and compared with every digest, in time that does not depend
/// on where (or whether) they differ, so that how long a refusal takes says nothing of the keys. The file holds
/// no key: reading it does not let anyone call.
package struct APIKeys: Sendable {
    package struct Entry: Sendable, Hashable {
        package let name: String
        package let digest: [UInt8]
    }

    package let entries: [Entry]

    package init(entries: [Entry]) {
        self.entries = entries
    }

    /// Reads the file at `path`: a line per key, `NAME sha256:HEX` (64 hex digits), `#` comments and blank lines
    /// ignored.
    /// - Throws: `APIKeysError` naming the file and the line that is wrong, or a file without any key.
    package init(contentsOf path: String) throws(APIKeysError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw APIKeysError("cannot read the API keys file \(path)")
        }
        try self.init(parsing: String(decoding: data, as: UTF8.self), file: path)
    }

    package init(parsing text: String, file: String) throws(APIKeysError) {
        var entries: [Entry] = []
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count == 2, fields[1].hasPrefix("sha256:"),
                let digest = Self.bytes(hex: fields[1].dropFirst(7))
            else {
                throw APIKeysError(
                    "\(file) line \(number + 1): write NAME sha256:HEX, the key's SHA-256 digest in 64 hex digits")
            }
            guard !entries.contains(where: { $0.name == String(fields[0]) }) else {
                throw APIKeysError("\(file) line \(number + 1): the name \(fields[0]) is given twice")
            }
            entries.append(Entry(name: String(fields[0]), digest: digest))
        }
        guard !entries.isEmpty else { throw APIKeysError("\(file) holds no key: nobody could call") }
        self.entries = entries
    }

    /// The name of the key `authorization` (an `Authorization` header's value) presents, or `nil` when it presents
    /// none of them. Every digest is compared in full, whatever matches.
    package func name(authorizing authorization: String?) -> String? {
        guard let authorization, let key = Self.bearerKey(authorization) else { return nil }
        let presented = SHA256.digest(key.utf8)
        var found: Int?
        for (index, entry) in entries.enumerated() {
            var difference: UInt8 = 0
            for (left, right) in zip(presented, entry.digest) { difference |= left ^ right }
            if difference == 0 { found = index }
        }
        return found.map { entries[$0].name }
    }

    /// The key of `Bearer KEY` (the scheme in any case, RFC 9110 §11.1).
    static func bearerKey(_ authorization: String) -> Substring? {
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let key = parts[1].trimmingCharacters(in: .whitespaces)
        return key.isEmpty ? nil : Substring(key)
    }

    static func bytes(hex: Substring) -> [UInt8]? {
        guard hex.count == 64, hex.allSatisfy(\.isHexDigit) else { return nil }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}

/// Why an API keys file cannot be used, naming it.
package struct APIKeysError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
