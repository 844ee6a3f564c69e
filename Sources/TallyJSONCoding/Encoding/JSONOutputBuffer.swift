/// The bytes one encode writes, in memory the encoder manages itself.
///
/// Why not `[UInt8]`: every byte of a result is appended here, one at a time or in short runs (a key, a date's
/// digits). An array checks its buffer's uniqueness and capacity at each append and copies a run through the
/// generic `append(contentsOf:)`, which costs more than the run. Here an append is a capacity check and a store, or
/// a copy of the run.
///
/// It owns its memory: only its `JSONByteWriter` holds it, and frees it (`deallocate()`) when it ends. (Not a
/// `~Copyable` struct with a `deinit`: Swift 6.3's optimizer crashes inlining that deinit into the writer.)
@usableFromInline
struct JSONOutputBuffer {
    @usableFromInline var start: UnsafeMutablePointer<UInt8>
    @usableFromInline var count = 0
    @usableFromInline var capacity: Int

    init(capacity: Int) {
        start = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    /// Frees the memory; the buffer must not be used after.
    func deallocate() { start.deallocate() }

    var isEmpty: Bool { count == 0 }

    @inlinable @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: count + 1) }
        start[count] = byte
        count += 1
    }

    @inlinable @inline(__always)
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        if capacity - count < bytes.count { grow(toHold: count + bytes.count) }
        (start + count).update(from: base, count: bytes.count)
        count += bytes.count
    }

    /// Appends what `body` writes at the end (room for `maxCount` bytes) and says it wrote.
    @inlinable @inline(__always)
    mutating func append(maxCount: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if capacity - count < maxCount { grow(toHold: count + maxCount) }
        count += body(start + count)
    }

    /// Appends bytes that may not be stored contiguously (a `String`'s UTF-8 view), one at a time.
    mutating func append(contentsOf bytes: some Sequence<UInt8>) {
        for byte in bytes { append(byte) }
    }

    /// Room for `needed` bytes at least, twice the capacity at least: appends stay amortized O(1).
    @usableFromInline
    mutating func grow(toHold needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        moved.initialize(from: start, count: count)
        start.deallocate()
        start = moved
        capacity = newCapacity
    }

    /// The bytes written.
    func array() -> [UInt8] { Array(UnsafeBufferPointer(start: start, count: count)) }
}
