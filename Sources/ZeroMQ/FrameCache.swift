/// Short frames that a receiving thread meets again and again, too long to be held in a `Frame` itself (longer
/// service names, routing ids a peer chose) — kept so that receiving one again costs a reference count instead of an
/// allocation and a copy. Frames of at most `Frame.inlineCapacity` bytes never come here: they allocate nothing.
///
/// Direct-mapped: a frame of up to `maximumLength` bytes hashes to one of `slotCount` slots; a hit returns the frame
/// stored there, a miss stores the new one in its place. Frames that never repeat (a short body) only ever evict
/// one entry, which the next frame of that kind puts back.
///
/// - Important: not thread-safe, and not `Sendable`: one per receiving thread, like the socket it serves.
package final class FrameCache {
    /// The longest frame kept.
    package static let maximumLength = 32
    private static let slotCount = 64
    private var slots: [Frame]

    package init() {
        slots = [Frame](repeating: .empty, count: Self.slotCount)
    }

    /// The frame holding `bytes`: the cached one when it holds the same bytes, else a new one (cached from now on).
    /// - Parameter bytes: `Frame.inlineCapacity + 1`...`maximumLength` bytes.
    func frame(_ bytes: UnsafeRawBufferPointer) -> Frame {
        // FNV-1a over the bytes, folded into a slot number.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let slot = Int(truncatingIfNeeded: (hash ^ (hash >> 32)) & UInt64(Self.slotCount - 1))
        let hit = slots[slot].withUnsafeBytes { cached in
            cached.count == bytes.count && cached.elementsEqual(bytes)
        }
        if hit { return slots[slot] }
        let frame = Frame(Array(bytes))
        slots[slot] = frame
        return frame
    }
}
