import TallyGateway
import Testing

/// The API keys file and the `Authorization` header: what is read, what is refused (naming the line), and which
/// presented keys are taken.
@Suite struct APIKeysTests {
    static let billingKey = "tally_billing-key"
    static let reportsKey = "tally_reports-key"
    static var file: String {
        """
        # keys of the backends

        billing  sha256:\(SHA256.hexDigest(Array(billingKey.utf8)))
        \treports\tsha256:\(SHA256.hexDigest(Array(reportsKey.utf8)).uppercased())
        """
    }

    @Test func linesAreReadWithCommentsBlanksAndEitherCaseOfHex() throws {
        let keys = try APIKeys(parsing: Self.file, file: "keys")
        #expect(keys.entries.map(\.name) == ["billing", "reports"])
        #expect(keys.entries.allSatisfy { $0.digest.count == 32 })
    }

    @Test func aPresentedKeyIsTakenByItsDigestOnly() throws {
        let keys = try APIKeys(parsing: Self.file, file: "keys")
        #expect(keys.name(authorizing: "Bearer \(Self.billingKey)") == "billing")
        #expect(keys.name(authorizing: "bearer \(Self.reportsKey)") == "reports", "the scheme in any case")
        #expect(keys.name(authorizing: "BEARER   \(Self.reportsKey)  ") == "reports", "spaces around the key")
        for refused in [
            nil, "", "Bearer", "Bearer ", "Basic \(Self.billingKey)", Self.billingKey, "Bearer \(Self.billingKey)x",
            "Bearer \(Self.billingKey.dropLast())", "Bearer \(SHA256.hexDigest(Array(Self.billingKey.utf8)))",
        ] {
            #expect(keys.name(authorizing: refused) == nil, "\(refused ?? "no header")")
        }
    }

    @Test(arguments: [
        ("billing sha256:abc", "line 1"),
        ("billing \(String(repeating: "0", count: 64))", "line 1"),
        ("# x\nbilling sha256:\(String(repeating: "g", count: 64))", "line 2"),
        ("billing sha256:\(String(repeating: "0", count: 64)) extra", "line 1"),
        ("a sha256:\(String(repeating: "0", count: 64))\na sha256:\(String(repeating: "1", count: 64))", "given twice"),
        ("# only a comment\n\n", "holds no key"),
    ])
    func aWrongFileIsRefusedNamingWhere(text: String, named: String) {
        #expect {
            try APIKeys(parsing: text, file: "keys.txt")
        } throws: { error in
            "\(error)".contains("keys.txt") && "\(error)".contains(named)
        }
    }

    @Test func aFileThatCannotBeReadIsNamed() {
        #expect {
            try APIKeys(contentsOf: "/nonexistent/tally-keys")
        } throws: { error in
            "\(error)".contains("/nonexistent/tally-keys")
        }
    }
}
