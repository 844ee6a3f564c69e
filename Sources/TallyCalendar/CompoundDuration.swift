/// The compound duration text every Tally setting takes and tally-gateway's `Request-Timeout` header too: `NUMBERunit`
/// parts such as `250ms`, `2.5s`, `1m30s` or `1h15m`, units from larger to smaller (`30s1m` is a typo, not 90
/// seconds), each at most once.
///
/// One grammar, so that a duration an operator writes in a setting reads the same in a header. What a bare number
/// means (milliseconds in a setting, seconds in a header as HTTP counts them), the bounds and the rounding are each
/// reader's own.
package enum CompoundDuration {
    /// Units from largest to smallest; `ms` before `m` so that the longer suffix is tried first.
    private static let units: [(name: String, milliseconds: Double)] = [
        ("h", 3_600_000), ("ms", 1), ("m", 60_000), ("s", 1000),
    ]
    private static let order = ["h", "m", "s", "ms"]

    /// The milliseconds `text` sums to (unrounded), or `nil` unless the whole text is such parts, at least one.
    package static func milliseconds(_ text: Substring) -> Double? {
        var rest = text
        var total = 0.0
        var lastUnit = -1
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard !number.isEmpty, let value = Double(number), value.isFinite else { return nil }
            rest = rest.dropFirst(number.count)
            guard let unit = units.first(where: { rest.hasPrefix($0.name) }),
                let rank = order.firstIndex(of: unit.name), rank > lastUnit
            else { return nil }
            rest = rest.dropFirst(unit.name.count)
            lastUnit = rank
            total += value * unit.milliseconds
        }
        return lastUnit >= 0 ? total : nil
    }
}
