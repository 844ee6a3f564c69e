/// One frame (message part) of a ZeroMQ message: an owned byte buffer.
///
/// A value type so that protocol code can build, compare and log frames without touching libzmq; receiving
/// copies the bytes out of the `zmq_msg_t` once, sending copies them into libzmq once.
public struct Frame: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var bytes: [UInt8]

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public init(_ bytes: some Sequence<UInt8>) { self.bytes = Array(bytes) }

    /// The UTF-8 bytes of `text`.
    public init(_ text: String) { self.bytes = Array(text.utf8) }

    public init(stringLiteral value: String) { self.init(value) }

    /// The empty frame (the MDP delimiter).
    public static let empty = Frame([UInt8]())

    public var count: Int { bytes.count }

    /// The bytes in one call rather than element by element (what the synthesized `Hashable` would do): routing
    /// ids are dictionary keys on every message a broker handles.
    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    public static func == (lhs: Frame, rhs: Frame) -> Bool { lhs.bytes == rhs.bytes }

    public var isEmpty: Bool { bytes.isEmpty }

    /// The frame as UTF-8 text, or `nil` if it is not valid UTF-8.
    public var text: String? { String(validating: bytes, as: UTF8.self) }

    /// Printable text when the frame is short ASCII, else hex (routing ids are binary): for logs.
    public var description: String {
        if bytes.count <= 64, bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            return "\"\(String(decoding: bytes, as: UTF8.self))\""
        }
        let shown = bytes.prefix(32).map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
        return "0x\(shown)\(bytes.count > 32 ? "…(\(bytes.count) bytes)" : "")"
    }
}
