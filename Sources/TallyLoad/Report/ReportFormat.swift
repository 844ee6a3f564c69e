import Foundation

/// How the text report and the progress line write numbers: latencies in milliseconds with three decimals (one
/// unit everywhere, microsecond resolution), rates as percentages, and `n/a` for what was not measured.
package enum ReportFormat {
    /// `0.394` for 394 µs.
    package static func milliseconds(_ microseconds: Double) -> String {
        String(format: "%.3f", microseconds / 1000)
    }

    package static func milliseconds(_ microseconds: UInt64?) -> String {
        microseconds.map { milliseconds(Double($0)) } ?? notMeasured
    }

    /// `94.05%`, `0.5%`, `1%`, `0.0012%`: two decimals (four below 0.01 %), trailing zeros dropped.
    package static func percent(_ fraction: Double) -> String {
        let percent = fraction * 100
        var text = String(format: percent > 0 && percent < 0.01 ? "%.4f" : "%.2f", percent)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text + "%"
    }

    package static func percent(_ fraction: Double?) -> String { fraction.map(percent) ?? notMeasured }

    /// Requests per second: `8928.3`.
    package static func rate(_ perSecond: Double) -> String { String(format: "%.1f", perSecond) }

    package static let notMeasured = "n/a"
}
