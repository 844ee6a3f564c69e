import Testing
import ZeroMQ

/// Frames of at most `Frame.inlineCapacity` bytes hold their bytes in the value itself: these hold such a frame to
/// the bytes it was made of however it was made, read, compared, hashed, changed or sent, and equal to the same
/// bytes held in an array or a libzmq message.
@Suite struct InlineFrameTests {
    let context = try! Context()

    /// Bytes that differ at every position, none zero, so that a frame that lost or gained a byte of its padding
    /// cannot pass.
    func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: 0xA1 &+ $0 &* 7) } }

    @Test(arguments: 0...(Frame.inlineCapacity + 2))
    func aFrameHoldsItsBytesWhereverTheyLive(count: Int) {
        let bytes = pattern(count)
        let made = Frame(bytes)
        let copied = bytes.withUnsafeBytes { Frame(copying: $0) }
        let fromSequence = Frame(bytes.lazy.map { $0 })
        for frame in [made, copied, fromSequence] {
            #expect(frame.count == count)
            #expect(frame.isEmpty == (count == 0))
            #expect(frame.bytes == bytes)
            #expect(frame.withUnsafeBytes { Array($0) } == bytes)
            #expect(frame == made && made == frame)
            #expect(frame.hashValue == made.hashValue)
            if count >= 2 { #expect(Array(frame.bytes(in: 1..<count)) == Array(bytes[1...])) }
        }
        #expect(Set([made, copied, fromSequence]).count == 1)
        // One byte more, one less, one changed: never equal.
        #expect(made != Frame(bytes + [0]))
        if count > 0 {
            #expect(made != Frame(Array(bytes.dropLast())))
            var changed = bytes
            changed[count - 1] ^= 0xFF
            #expect(made != Frame(changed))
        }
    }

    @Test func settingTheBytesOfAFrameMovesThemWhereTheyFit() {
        var frame = Frame(pattern(3))
        frame.bytes = pattern(40)
        #expect(frame == Frame(pattern(40)) && frame.count == 40)
        frame.bytes = pattern(Frame.inlineCapacity)
        #expect(frame == Frame(pattern(Frame.inlineCapacity)) && frame.count == Frame.inlineCapacity)
        frame.bytes = []
        #expect(frame == .empty && frame.isEmpty)
    }

    @Test(arguments: [0, 1, 0x0102_0304_0506_0708, UInt64.max, 1 << 63])
    func aBigEndianFrameIsItsEightBytesMostSignificantFirst(value: UInt64) {
        let expected = (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
        #expect(Frame(bigEndian: value) == Frame(expected))
        #expect(Frame(bigEndian: value).bytes == expected)
    }

    @Test func inlineFramesTravelAsSentWithAndWithoutACache() throws {
        let pair = try Socket(context, type: .pair)
        try pair.bind("inproc://inline-frames")
        let peer = try Socket(context, type: .pair)
        try peer.connect("inproc://inline-frames")
        let sent = (0...(Frame.inlineCapacity + 2)).map { Frame(pattern($0)) } + [Frame(bigEndian: 42)]
        let cache = FrameCache()
        for useCache in [false, true, true] {
            try peer.send(sent)
            let received = try #require(try pair.receive(cache: useCache ? cache : nil))
            #expect(received.frames == sent)
            #expect(received.frames.map(\.bytes) == sent.map(\.bytes))
        }
    }
}
