extension JSONTapeView {
    /// The number node `node` as an integer of type `T`, or `nil` when it is not an integer in `T`'s range.
    func integer<T: FixedWidthInteger>(at node: Int, as type: T.Type) -> T? {
        let entry = nodes[node]
        if let small = JSONSmallNumber.integer(entry.small) { return T(exactly: small) }
        let text = UnsafeBufferPointer(start: bytes.baseAddress! + Int(entry.start), count: Int(entry.length))
        // Plain digits of at most 18 characters cannot overflow Int64: the common case, without the general path.
        guard !entry.isComplex, text.count <= 18 else { return JSONNumberText(text).integer(as: T.self) }
        let negative = text[0] == UInt8(ascii: "-")
        var value: Int64 = 0
        for index in (negative ? 1 : 0)..<text.count {
            value = value &* 10 &+ Int64(text[index] &- UInt8(ascii: "0"))
        }
        return T(exactly: negative ? -value : value)
    }

    /// `integer(at:as:)` for `Int`, callable from inlined code.
    @usableFromInline
    func int(at node: Int) -> Int? { integer(at: node, as: Int.self) }

    /// The number node `node` as the nearest double, or `nil` when it overflows to infinity or a non-zero number
    /// underflows to zero (Foundation refuses both).
    @usableFromInline
    func double(at node: Int) -> Double? {
        let entry = nodes[node]
        if let small = JSONSmallNumber.double(entry.small) { return small }
        let text = UnsafeBufferPointer(start: bytes.baseAddress! + Int(entry.start), count: Int(entry.length))
        if let value = JSONShortDecimal.value(of: text) { return value }
        let number = JSONNumberText(text)
        if let value = number.fastDouble { return value }
        // The standard library parses with the C library's strtod (correctly rounded, "C" locale).
        guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else { return nil }
        return value == 0 && !number.isZero ? nil : value
    }
}
