/// A small, fast, seedable random number generator (SplitMix64), so that a load run's payloads are the same for
/// the same `--seed` on every machine and every run.
package struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A roughly normal value (sum of uniforms), clamped to `range`.
    package mutating func bell(mean: Double, spread: Double, in range: ClosedRange<Int>) -> Int {
        let sum = (0..<4).reduce(0.0) { total, _ in total + Double.random(in: -1...1, using: &self) }
        return min(max(Int(mean + sum / 2 * spread), range.lowerBound), range.upperBound)
    }
}
