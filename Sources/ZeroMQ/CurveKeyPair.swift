import CZeroMQ

/// A CURVE (Curve25519) key pair in Z85 text form, 40 characters each, as libzmq's CURVE options take them.
package struct CurveKeyPair: Sendable, Hashable {
    package let publicKey: String
    package let secretKey: String

    /// Generates a new key pair.
    /// - Throws: `ZMQError` with ENOTSUP when libzmq was built without CURVE.
    package static func generate() throws(ZMQError) -> CurveKeyPair {
        var publicKey = [CChar](repeating: 0, count: 41)
        var secretKey = [CChar](repeating: 0, count: 41)
        guard zmq_curve_keypair(&publicKey, &secretKey) == 0 else { throw .last("zmq_curve_keypair") }
        return CurveKeyPair(publicKey: Self.text(publicKey), secretKey: Self.text(secretKey))
    }

    /// The pair whose secret key is `secretKey` (the public key is derived).
    package init(secretKey: String) throws(ZMQError) {
        guard Self.isValidKey(secretKey) else {
            throw ZMQError(errno: EINVAL, operation: "CURVE secret key must be 40 Z85 characters")
        }
        var publicKey = [CChar](repeating: 0, count: 41)
        guard zmq_curve_public(&publicKey, secretKey) == 0 else { throw .last("zmq_curve_public") }
        self.init(publicKey: Self.text(publicKey), secretKey: secretKey)
    }

    private init(publicKey: String, secretKey: String) {
        self.publicKey = publicKey
        self.secretKey = secretKey
    }

    /// Whether `key` is 40 characters of Z85 that decode to 32 bytes.
    package static func isValidKey(_ key: String) -> Bool {
        guard key.utf8.count == 40 else { return false }
        var decoded = [UInt8](repeating: 0, count: 32)
        return zmq_z85_decode(&decoded, key) != nil
    }

    /// The 32 raw bytes of a Z85 key (how ZAP requests carry client keys), or `nil` if it is not one.
    package static func decode(_ key: String) -> [UInt8]? {
        guard key.utf8.count == 40 else { return nil }
        var decoded = [UInt8](repeating: 0, count: 32)
        return zmq_z85_decode(&decoded, key) != nil ? decoded : nil
    }

    /// The Z85 text of 32 raw key bytes.
    package static func encode(_ raw: [UInt8]) -> String? {
        guard raw.count == 32 else { return nil }
        var text = [CChar](repeating: 0, count: 41)
        return zmq_z85_encode(&text, raw, 32) != nil ? Self.text(text) : nil
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
