import Foundation
import Testing
import ZeroMQ

@Suite struct CurveKeyFileTests {
    func file(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test func keysWithHashCharactersAndComments() throws {
        // '#' is a Z85 character; keys containing it must survive, comments must not.
        var withHash = try CurveKeyPair.generate()
        while !withHash.publicKey.contains("#") { withHash = try CurveKeyPair.generate() }
        let other = try CurveKeyPair.generate()
        let path = try file("# allowed clients\n\n\(withHash.publicKey)  # Ana's laptop\n\t\(other.publicKey)\n")
        #expect(try CurveKeyFile.readPublicKeys(path) == [withHash.publicKey, other.publicKey])
        #expect(try CurveKeyFile.readSecret(try file("\(withHash.secretKey)\n")) == withHash)
        #expect(try CurveKeyFile.publicKey(other.publicKey) == other.publicKey)
    }

    @Test func badFilesAreRefused() throws {
        #expect(throws: CurveKeyFile.Problem.self) { try CurveKeyFile.readPublicKeys(try file("not-a-key\n")) }
        #expect(throws: CurveKeyFile.Problem.self) { try CurveKeyFile.readPublicKeys(try file("# only comments\n")) }
        #expect(throws: CurveKeyFile.Problem.self) { try CurveKeyFile.readPublicKeys("/nonexistent") }
        let pair = try CurveKeyPair.generate()
        #expect(throws: CurveKeyFile.Problem.self) {
            try CurveKeyFile.readSecret(try file("\(pair.secretKey)\n\(pair.secretKey)\n"))
        }
    }
}
