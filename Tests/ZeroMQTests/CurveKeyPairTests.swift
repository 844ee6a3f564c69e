import Testing
import ZeroMQ

@Suite struct CurveKeyPairTests {
    @Test func generatedKeysRoundTrip() throws {
        #expect(ZMQLibrary.has("curve"))
        let pair = try CurveKeyPair.generate()
        #expect(pair.publicKey.utf8.count == 40)
        #expect(CurveKeyPair.isValidKey(pair.secretKey))
        #expect(try CurveKeyPair(secretKey: pair.secretKey) == pair)
        let raw = try #require(CurveKeyPair.decode(pair.publicKey))
        #expect(CurveKeyPair.encode(raw) == pair.publicKey)
        #expect(!CurveKeyPair.isValidKey("too short"))
    }

    @Test func curveHandshakeAndPlaintextRefusal() throws {
        let context = try Context()
        let server = try CurveKeyPair.generate()
        let client = try CurveKeyPair.generate()
        let router = try Socket(context, type: .router)
        try router.set(.curveServer, true)
        try router.set(.curveSecretKey, server.secretKey)
        try router.set(.receiveTimeout, .seconds(5))
        try router.bind("tcp://127.0.0.1:0")

        let dealer = try Socket(context, type: .dealer)
        try dealer.set(.curveServerKey, server.publicKey)
        try dealer.set(.curvePublicKey, client.publicKey)
        try dealer.set(.curveSecretKey, client.secretKey)
        try dealer.connect(router.lastEndpoint)
        try dealer.send(["secret"])
        #expect(try router.receive()?.frames.last == "secret")

        let plain = try Socket(context, type: .dealer)
        try plain.connect(router.lastEndpoint)
        try plain.send(["plaintext"])
        try router.set(.receiveTimeout, .milliseconds(300))
        #expect(try router.receive() == nil)
    }
}
