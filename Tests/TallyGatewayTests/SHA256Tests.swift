import Foundation
import TallyGateway
import TallyTesting
import Testing

/// The gateway's own SHA-256, which API keys are compared by: FIPS 180-4's test vectors, then every length across
/// the padding's boundaries against Python's hashlib.
@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func theStandardsVectors(message: String, digest: String) {
        #expect(SHA256.hexDigest(Array(message.utf8)) == digest)
    }

    @Test func aMillionAs() {
        #expect(
            SHA256.hexDigest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Lengths 0 to 200 (a byte short of, at and past every block and padding boundary), bytes of every value.
    @Test func everyLengthAgreesWithPythonsHashlib() async throws {
        let messages = (0...200).map { length in (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ length) } }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("sha256-\(UUID().uuidString)")
        try Data(messages.map { $0.map { String(format: "%02x", $0) }.joined() }.joined(separator: "\n").utf8)
            .write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let script = """
            import hashlib, sys
            for line in open(sys.argv[1]).read().split("\\n"):
                print(hashlib.sha256(bytes.fromhex(line)).hexdigest())
            """
        let python = try await ShortCommand.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, input.path], timeout: .seconds(30))
        try #require(python.succeeded, "\(python.errorOutput)")
        let expected = python.output.split(separator: "\n").map(String.init)
        #expect(expected.count == messages.count)
        for (message, digest) in zip(messages, expected) {
            #expect(SHA256.hexDigest(message) == digest, "\(message.count) bytes")
        }
    }
}
