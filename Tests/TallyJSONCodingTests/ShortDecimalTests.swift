import Foundation
import TallyJSONCoding
import Testing

/// Doubles of one to four decimal places are written from their digits, not through `description`
/// (`JSONByteWriter.writeShortDecimal`): the text must be `description`'s (without a trailing `.0`) for every
/// double, those the fast path takes and those it leaves.
@Suite struct ShortDecimalTests {
    /// The encoder's text of `value`, and the text `description` gives it.
    static func texts(_ value: Double) -> (written: String, expected: String) {
        let written = String(
            decoding: try! TallyJSONEncoder().encodeToBytes([value]).dropFirst().dropLast(), as: UTF8.self)
        let description = value.description
        return (written, description.hasSuffix(".0") ? String(description.dropLast(2)) : description)
    }

    @Test(arguments: [
        0.0001, 0.0002, 0.00015, 0.00009999, 0.001, 0.1, 0.2, 0.3, 0.7, 1.005, 2.675, 66.14, 0.8333, 7999.99, 8000.01,
        0.9999, 12947.57, 999_999_999.9999, 999_999_999.99995, 1e9 - 0.5, 1e9 + 0.5, 123_456_789.1234, 0.1 + 0.2,
        1.0000000000000002, 5e-5, 4.35, 1e-4 * 3, 100.5, 0.05, 0.0005, 3.14159, 1.23456,
    ])
    func edgesAreWrittenAsTheirDescription(_ value: Double) {
        for signed in [value, -value] {
            let (written, expected) = Self.texts(signed)
            #expect(written == expected, "\(signed)")
        }
    }

    /// Figures rounded to one to six places (the last two the fast path leaves), at every magnitude from 10^-5 to
    /// 10^10, both signs; and doubles of random bits in the same range.
    @Test func randomFiguresAreWrittenAsTheirDescription() async throws {
        let problems = try await Self.onOwnThread { () -> [String] in
            var generator = SystemRandomNumberGenerator()
            var problems: [String] = []
            for _ in 0..<60_000 {
                let magnitude = pow(10, Double.random(in: -5...10, using: &generator))
                let places = Int.random(in: 1...6, using: &generator)
                let scale = pow(10, Double(places))
                let figure = (magnitude * scale).rounded() / scale
                let random = Double(bitPattern: UInt64.random(in: 0x3EE0_0000_0000_0000...0x4200_0000_0000_0000))
                for value in [figure, -figure, random, -random] {
                    let (written, expected) = Self.texts(value)
                    if written != expected { problems.append("\(value): \(written), not \(expected)") }
                }
            }
            return problems
        }
        #expect(problems.isEmpty, "\(problems.prefix(10))")
    }

    /// Foundation's encoder agrees on the figures too (its text is what Tally's clients have always read).
    @Test func foundationWritesTheSameFigures() throws {
        let figures: [Double] = (1...2_000).map { index in
            let value = Double(index) * 0.37 + 0.0001 * Double(index % 7)
            return (value * 100).rounded() / 100
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        #expect(try TallyJSONEncoder().encodeToBytes(figures) == Array(encoder.encode(figures)))
    }

    /// CPU-bound work off the cooperative pool (the suites beside it wait on real sockets).
    static func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async throws -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }
}
