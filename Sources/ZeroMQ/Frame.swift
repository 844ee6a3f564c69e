#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One frame (message part) of a ZeroMQ message.
///
/// A value type so that protocol code can build, compare and log frames without touching libzmq. Its bytes live
/// in one of three places:
/// - the value itself, for frames of at most `inlineCapacity` bytes: routing ids, MDP headers and commands, dispatch
///   tokens, the usual service names. Copying such a frame touches no reference count and making one allocates
///   nothing, which is most of the frames a broker handles per request;
/// - a Swift array, for the larger frames a program makes and receives (`FrameCache` shares received ones that
///   repeat);
/// - the libzmq message they arrived in (`ReceivedMessageBuffer`), for large received frames: a broker that
///   forwards a request or a reply hands libzmq the same message back (`zmq_msg_copy` shares its content by
///   reference count), so relaying a body costs the same whatever its size.
///
/// Read the bytes with `withUnsafeBytes`, which never copies; `bytes` copies a message-backed frame out into an
/// array each time it is read (what receiving did for every frame before).
///
/// The members other modules call on every message are `@inlinable`, and the type is `@usableFromInline` so that
/// its `Equatable` and `Hashable` conformances are visible to them too (a dictionary keyed by routing ids, a
/// `switch` on a header): a `package` body is otherwise an opaque call from another module.
@usableFromInline
package struct Frame: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    @usableFromInline
    enum Storage: Sendable {
        case inline(InlineBytes)
        case array([UInt8])
        case message(ReceivedMessageBuffer)
    }

    @usableFromInline
    var storage: Storage

    /// The longest frame whose bytes are kept in the value itself.
    package static let inlineCapacity = InlineBytes.capacity

    @inlinable
    package init(_ bytes: [UInt8]) {
        if bytes.count <= InlineBytes.capacity {
            storage = bytes.withUnsafeBytes { .inline(InlineBytes($0)) }
        } else {
            storage = .array(bytes)
        }
    }

    /// A frame holding a copy of `bytes`: in the value when they fit, else in an array.
    @inlinable
    package init(copying bytes: UnsafeRawBufferPointer) {
        storage = bytes.count <= InlineBytes.capacity ? .inline(InlineBytes(bytes)) : .array(Array(bytes))
    }

    /// The eight bytes of `value`, most significant first, held in the value (no allocation).
    @inlinable
    package init(bigEndian value: UInt64) {
        storage = Swift.withUnsafeBytes(of: value.bigEndian) { .inline(InlineBytes($0)) }
    }

    package init(_ bytes: some Sequence<UInt8>) { self.init(Array(bytes)) }

    /// The UTF-8 bytes of `text`.
    package init(_ text: String) { self.init(Array(text.utf8)) }

    @usableFromInline
    package init(stringLiteral value: String) { self.init(value) }

    init(message: ReceivedMessageBuffer) { storage = .message(message) }

    /// The empty frame (the MDP delimiter).
    package static let empty = Frame([UInt8]())

    /// The frame's bytes as an array: a copy when they live in a libzmq message. Prefer `withUnsafeBytes` on a
    /// path that runs per message.
    @inlinable
    package var bytes: [UInt8] {
        get {
            switch storage {
            case .inline(let inline): inline.withUnsafeBytes { Array($0) }
            case .array(let bytes): bytes
            case .message(let message): message.withUnsafeBytes { Array($0) }
            }
        }
        set { self = Frame(newValue) }
    }

    /// Calls `body` with the frame's bytes, in place.
    @inlinable
    package func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        switch storage {
        case .inline(let inline): try inline.withUnsafeBytes(body)
        case .array(let bytes): try bytes.withUnsafeBytes(body)
        case .message(let message): try message.withUnsafeBytes(body)
        }
    }

    /// The bytes in `range`, to keep a few bytes of a frame (an id) without its whole content: a slice of the
    /// frame's array (no copy), or a copy of those bytes alone when the frame holds them itself or they are in its
    /// libzmq message.
    @inlinable
    package func bytes(in range: Range<Int>) -> ArraySlice<UInt8> {
        switch storage {
        case .inline(let inline): inline.withUnsafeBytes { ArraySlice($0[range]) }
        case .array(let bytes): bytes[range]
        case .message(let message): message.withUnsafeBytes { ArraySlice($0[range]) }
        }
    }

    /// Whether the bytes live in the libzmq message they arrived in (sending the frame shares them with libzmq).
    package var isMessageBacked: Bool {
        if case .message = storage { return true }
        return false
    }

    @inlinable
    package var count: Int {
        switch storage {
        case .inline(let inline): Int(inline.count)
        case .array(let bytes): bytes.count
        case .message(let message): message.count
        }
    }

    /// The bytes in one call rather than element by element (what the synthesized `Hashable` would do): routing
    /// ids are dictionary keys on every message a broker handles.
    @inlinable
    package func hash(into hasher: inout Hasher) {
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// Equal bytes, compared with `memcmp` whatever the storages: the generic `elementsEqual` went element by
    /// element through the collection protocols (seconds for a thousand 20 KB frames in a debug build).
    @inlinable
    package static func == (lhs: Frame, rhs: Frame) -> Bool {
        // Two small frames, the usual pair (ids, headers, commands): their words, zero past the count, say it all.
        if case .inline(let left) = lhs.storage, case .inline(let right) = rhs.storage {
            return left.count == right.count && left.words == right.words
        }
        guard lhs.count == rhs.count else { return false }
        return lhs.withUnsafeBytes { left in
            rhs.withUnsafeBytes { right in
                guard let leftStart = left.baseAddress, let rightStart = right.baseAddress else { return true }
                return memcmp(leftStart, rightStart, left.count) == 0
            }
        }
    }

    @inlinable
    package var isEmpty: Bool { count == 0 }

    /// The frame as UTF-8 text, or `nil` if it is not valid UTF-8.
    package var text: String? {
        withUnsafeBytes { bytes in
            // ASCII (service names, MDP headers) needs no validation: the common case, on every request a broker
            // receives, skips the general validator.
            if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
            return String(validating: bytes.assumingMemoryBound(to: UInt8.self), as: UTF8.self)
        }
    }

    /// Printable text when the frame is short ASCII, else hex (routing ids are binary): for logs.
    @usableFromInline
    package var description: String {
        withUnsafeBytes { bytes in
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
}

/// Up to `capacity` bytes held in place: the storage of a small `Frame`. The bytes past `count` are zero.
@usableFromInline
struct InlineBytes: Sendable {
    @usableFromInline
    static let capacity = 15

    @usableFromInline
    var words: (UInt64, UInt64)
    @usableFromInline
    var count: UInt8

    /// - Parameter bytes: at most `capacity` bytes.
    @inlinable
    init(_ bytes: UnsafeRawBufferPointer) {
        words = (0, 0)
        count = UInt8(truncatingIfNeeded: bytes.count)
        Swift.withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: bytes) }
    }

    @inlinable
    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try Swift.withUnsafeBytes(of: words) { try body(UnsafeRawBufferPointer(rebasing: $0[..<Int(count)])) }
    }
}
