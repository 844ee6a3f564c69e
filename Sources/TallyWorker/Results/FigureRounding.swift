import Foundation

/// How every rounded figure of a v1 result is rounded ("Numbers out" in Protocol/README.md).
package enum FigureRounding {
    /// Values this close to a whole number, relative to it, are that whole number: the noise binary floating point
    /// leaves in sums of decimal inputs (0.1 + 0.2 + 0.7 is 1.0000000000000002), far below any difference a
    /// request can express (progress moves by at least 10⁻⁶, an average of ≤ 20,000 days by 5·10⁻⁵).
    static let wholeNumberTolerance = 1e-12

    /// Rounds a ratio or measure for the wire to `places` decimals, so that responses are readable and stable
    /// (`0.8333`, not `0.8333333333333334`), and never onto a whole number the value is not.
    ///
    /// Clients compare these figures with whole numbers: progress and intensity with 1 (goal met, the best day of
    /// the heatmap) and 0 (nothing walked), an average with a goal of steps, a weight or a volume with 0
    /// (bodyweight). Rounding to the nearest value alone would turn 99,996 of 100,000 steps into progress 1 beside
    /// `state: in_progress`, and 0.004 kg into bodyweight. So where the nearest value is whole and the value is
    /// not, the figure is one step (10^-places) from it towards the value: 0.99996 → 0.9999, 0.00004 → 0.0001,
    /// 7999.996 → 7999.99, 8000.001 → 8000.01. For every whole number n, the figure is ≥ n, > n or = n exactly
    /// when the value is (for figures below 10⁹, where `wholeNumberTolerance` is finer than the last decimal: every
    /// figure of v1 but a volume no workout reaches).
    package static func rounded(_ value: Double, places: Int = 4) -> Double {
        let scale = pow(10, Double(places))
        var steps = (value * scale).rounded()
        let whole = value.rounded()
        let isWhole = abs(value - whole) <= wholeNumberTolerance * max(1, abs(whole))
        if !isWhole, steps.truncatingRemainder(dividingBy: scale) == 0 {
            steps += value * scale > steps ? 1 : -1
        }
        return steps / scale
    }
}
