/// The output of one encode: bytes written in document order, plus the stack of arrays and objects still open.
///
/// `Encodable` gives no "container finished" call, so a container is closed lazily: when its parent writes its
/// next member or element, or when the top-level encode returns. That works because Codable conformances use
/// containers in stack order (a nested value is written completely before its parent's next member). A container
/// used after a sibling was started (interleaving) is detected and reported as an `EncodingError`, never written
/// out wrong.
@usableFromInline
final class JSONByteWriter {
    struct Frame {
        let id: Int
        let isObject: Bool
        /// Offset of the opening bracket, which identifies the value slot that opened it.
        let openedAt: Int
        /// Members or elements begun so far.
        var count = 0
        /// Where the latest member's value starts, to write `{}` for a value that encoded nothing.
        var valueStart = 0
        /// The latest member's key, for coding paths.
        var key: (any CodingKey)?
    }

    // Unchecked exclusivity: these are touched several times per value written, and the runtime's dynamic
    // exclusivity checks (class properties get them) were a third of the encoder's time. One writer serves one
    // encode on one thread, and no access to them is ever held across a call that could reach them again.
    @exclusivity(unchecked) @usableFromInline var bytes = JSONOutputBuffer(capacity: 1024)
    @exclusivity(unchecked) var frames: [Frame] = []
    @exclusivity(unchecked) private var nextFrameID = 0
    /// The first misuse found where the API gives no way to throw; the encode throws it at the end.
    var failure: EncodingError?
    /// Whether `JSONFastEncodable` values write themselves.
    let usesFastPaths: Bool
    /// Whether `encodeIfPresent(nil)` writes the member as `null` (`TallyJSONEncoder.NilMembers.null`).
    @usableFromInline let writesNilMembers: Bool

    init(usesFastPaths: Bool = true, writesNilMembers: Bool = false) {
        self.usesFastPaths = usesFastPaths
        self.writesNilMembers = writesNilMembers
    }

    deinit { bytes.deallocate() }

    /// Opens an array or object at the current position and returns its frame id.
    func openFrame(isObject: Bool) -> Int {
        nextFrameID += 1
        frames.append(Frame(id: nextFrameID, isObject: isObject, openedAt: bytes.count))
        bytes.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        return nextFrameID
    }

    /// Closes every frame above the first `depth`.
    func closeFrames(deeperThan depth: Int) {
        while frames.count > depth {
            completeLatestValue(of: frames.count - 1)
            let frame = frames.removeLast()
            bytes.append(frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }
    }

    /// Writes `{}` for a member or element whose value encoded nothing (Foundation's behaviour).
    func completeLatestValue(of frameIndex: Int) {
        let frame = frames[frameIndex]
        if frame.count > 0 && bytes.count == frame.valueStart {
            bytes.append(UInt8(ascii: "{"))
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Starts the next member (`key` non-nil) or element of frame `frameIndex`, which must still be open.
    /// - Throws: `EncodingError.invalidValue` if the container was already closed (interleaved use).
    func beginValue(in frameIndex: Int, frameID: Int, key: (any CodingKey)?) throws {
        guard frameIndex < frames.count, frames[frameIndex].id == frameID else {
            throw EncodingError.invalidValue(
                key?.stringValue ?? "element",
                EncodingError.Context(
                    codingPath: codingPath(depth: min(frameIndex, frames.count)),
                    debugDescription: "A container was used after a sibling container was started; "
                        + "TallyJSONEncoder writes containers in stack order"))
        }
        closeFrames(deeperThan: frameIndex + 1)
        completeLatestValue(of: frameIndex)
        if frames[frameIndex].count > 0 { bytes.append(UInt8(ascii: ",")) }
        if let key {
            writeString(key.stringValue)
            bytes.append(UInt8(ascii: ":"))
            frames[frameIndex].key = key
        }
        frames[frameIndex].count += 1
        frames[frameIndex].valueStart = bytes.count
    }

    /// The coding path of a value slot at `depth`: the open frames' current keys and element positions.
    func codingPath(depth: Int) -> [any CodingKey] {
        frames.prefix(depth).map { frame in
            frame.isObject ? frame.key ?? JSONCodingKey(stringValue: "") : JSONCodingKey(intValue: frame.count - 1)
        }
    }

    func record(_ error: EncodingError) {
        if failure == nil { failure = error }
    }
}
