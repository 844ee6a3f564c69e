/// Values in dense, reusable slots, found by key once and by slot number after that.
///
/// The broker touches a worker, its service and its process several times per message. With dictionaries of
/// structs every touch hashes a routing id or a service name again and copies the whole struct out (retaining each
/// of its references); with slots, the key is hashed once per message and everything after is an array access in
/// place. Slot numbers are reused after `remove`, so whoever keeps one must drop it when its value goes.
///
/// A freed slot keeps its last value until it is reused (values are plain, not optional, so that reading one in place
/// is a borrow: unwrapping an optional element would copy it out, retaining everything it holds).
struct SlotTable<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private var values: [Value] = []
    private var keys: [Key?] = []
    private var slotsByKey: [Key: Int] = [:]
    private var free: [Int] = []

    /// Occupied slots.
    var count: Int { slotsByKey.count }

    /// The slot holding `key`'s value.
    func slot(of key: Key) -> Int? { slotsByKey[key] }

    /// The value in `slot`, read or changed in place.
    /// - Important: `slot` must be occupied.
    subscript(slot: Int) -> Value {
        _read { yield values[slot] }
        _modify { yield &values[slot] }
    }

    /// The value of `key`, if any.
    subscript(key key: Key) -> Value? {
        slotsByKey[key].map { values[$0] }
    }

    /// The key of the value in `slot`.
    func key(of slot: Int) -> Key { keys[slot]! }

    /// Stores `value` under `key` (which must not be present) and returns its slot.
    @discardableResult
    mutating func insert(_ value: Value, for key: Key) -> Int {
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            values[slot] = value
            keys[slot] = key
        } else {
            slot = values.count
            values.append(value)
            keys.append(key)
        }
        slotsByKey[key] = slot
        return slot
    }

    /// Empties `slot` and returns what it held.
    @discardableResult
    mutating func remove(_ slot: Int) -> Value {
        slotsByKey[keys[slot]!] = nil
        keys[slot] = nil
        free.append(slot)
        return values[slot]
    }

    /// The occupied slots, in slot order.
    var slots: [Int] { keys.indices.filter { keys[$0] != nil } }

    /// The values, in slot order.
    var allValues: some Sequence<Value> { keys.indices.lazy.filter { keys[$0] != nil }.map { values[$0] } }

    /// Empties the table.
    mutating func removeAll() {
        self = SlotTable()
    }
}
