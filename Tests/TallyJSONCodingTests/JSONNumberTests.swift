import Foundation
@testable import TallyJSONCoding
import TallyJSONCoding
import Testing

/// Numbers convert exactly: integers only when the text is an integer in range, doubles correctly rounded.
@Suite struct JSONNumberTests {
    /// `read` applied to the parsed tape of `text`, which stays alive while it runs (a view does not keep it).
    func read<Result>(_ text: String, _ read: (JSONTapeView) -> Result) throws -> Result {
        let tape = try JSONParser.parse(Array(text.utf8))
        return withExtendedLifetime(tape) { read(tape.view) }
    }

    @Test(
        arguments: [
            ("0", 0), ("-0", 0), ("7", 7), ("-42", -42), ("1.0", 1), ("1.50e1", 15), ("1e2", 100), ("0.1e1", 1),
            ("123456789012345678", 123_456_789_012_345_678), ("9223372036854775807", Int.max),
            ("-9223372036854775808", Int.min), ("922337203685477580.7e1", Int.max), ("0e99999", 0), ("-0.0e-5", 0),
            ("100000000000000000e-17", 1),
        ] as [(String, Int)])
    func integersThatFit(_ text: String, _ expected: Int) throws {
        #expect(try read(text) { $0.integer(at: 0, as: Int.self) } == expected)
    }

    @Test(arguments: [
        "1.5", "0.1", "9223372036854775808", "-9223372036854775809", "1e19", "1e-400", "12345678901234567890",
        "100000000000000000000.0", "1E400", "1.00000000000000001", "9007199254740993.5",
    ])
    func integersThatDoNot(_ text: String) throws {
        #expect(try read(text) { $0.integer(at: 0, as: Int.self) } == nil)
    }

    @Test func smallerIntegerTypesCheckTheirRange() throws {
        #expect(try read("255") { $0.integer(at: 0, as: UInt8.self) } == 255)
        #expect(try read("256") { $0.integer(at: 0, as: UInt8.self) } == nil)
        #expect(try read("-1") { $0.integer(at: 0, as: UInt8.self) } == nil)
        #expect(try read("-128") { $0.integer(at: 0, as: Int8.self) } == -128)
        #expect(try read("18446744073709551615") { $0.integer(at: 0, as: UInt64.self) } == UInt64.max)
        #expect(try read("18446744073709551616") { $0.integer(at: 0, as: UInt64.self) } == nil)
    }

    @Test(arguments: [
        "0", "-0", "0.1", "0.2", "0.3", "1.7976931348623157e308", "2.2250738585072014e-308", "2.2250738585072011e-308",
        "4.9e-324", "5e-324", "123456789012345678901234567890", "9007199254740993", "0.30000000000000004",
        "1e23", "8.98846567431158e307", "2.4703282292062328e-324", "7100.5", "-380.25", "1e22", "1e-22",
        "3.141592653589793238462643383279", "179769313486231570000000000000000000000000000000000000000000",
    ])
    func doublesMatchTheCLibrary(_ text: String) throws {
        let value = try #require(try read(text) { $0.double(at: 0) })
        let reference = try #require(Double(text))
        #expect(value.bitPattern == reference.bitPattern, "\(text): \(value) != \(reference)")
    }

    @Test(arguments: ["1e400", "-1e400", "1e-400", "2e-324"])
    func doublesOutOfRangeAreRefused(_ text: String) throws {
        #expect(try read(text) { $0.double(at: 0) } == nil)
    }

    @Test func randomDoublesRoundTripBitForBit() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let value = Double(bitPattern: generator.next() & ~(0x7FF << 52) | (UInt64.random(in: 1...0x7FE) << 52))
            for text in [value.description, String(format: "%.17g", value), String(format: "%.6e", value)] {
                let parsed = try #require(try read(text) { $0.double(at: 0) })
                #expect(parsed.bitPattern == Double(text)!.bitPattern, "\(text)")
            }
        }
    }

    @Test func randomShortDecimalsTakeTheFastPathCorrectly() throws {
        for _ in 0..<20_000 {
            let digits = String(UInt64.random(in: 0...999_999_999_999_999))
            let exponent = Int.random(in: -40...40)
            let text = "\(digits)e\(exponent)"
            let parsed = try #require(try read(text) { $0.double(at: 0) })
            #expect(parsed.bitPattern == Double(text)!.bitPattern, "\(text)")
        }
    }

    /// Plain decimals of up to 15 digits take `JSONShortDecimal`: the same double as the C library, bit for bit,
    /// negative zero included.
    @Test func randomPlainDecimalsMatchTheCLibrary() throws {
        for _ in 0..<20_000 {
            let digits = String(UInt64.random(in: 0...999_999_999_999_999))
            let point = Int.random(in: 0...digits.count)
            var text = digits
            if point < digits.count {
                text.insert(".", at: text.index(text.startIndex, offsetBy: point))
                if point == 0 { text = "0" + text }
            }
            if Bool.random() { text = "-" + text }
            let parsed = try #require(try read(text) { $0.double(at: 0) })
            #expect(parsed.bitPattern == Double(text)!.bitPattern, "\(text)")
        }
    }

    @Test(arguments: [
        ("-0", true), ("-0.0", true), ("0", true), ("0.00000000000001", true), ("0.000000000000001", false),
        ("999999999999999", true),
        ("-99999999999999.9", true), ("62.5", true), ("7100.50", true), ("1e2", false), ("1E-2", false),
        ("1234567890123456", false), ("0.1234567890123456", false), ("-9999999999999999", false),
    ])
    func shortDecimalsAreThePlainOnes(_ text: String, _ isShort: Bool) throws {
        let value = Array(text.utf8).withUnsafeBufferPointer { JSONShortDecimal.value(of: $0) }
        #expect((value != nil) == isShort)
        if let value { #expect(value.bitPattern == Double(text)!.bitPattern, "\(text)") }
        let parsed = try #require(try read(text) { $0.double(at: 0) })
        #expect(parsed.bitPattern == Double(text)!.bitPattern, "\(text)")
    }

    /// Small plain numbers are packed into their node while parsing (`JSONSmallNumber`) and read from there: the
    /// same integer and the same double as from the text, and only the ones that fit are packed.
    @Test(arguments: [
        ("0", true), ("8", true), ("16382", true), ("16383", false), ("99999", false), ("62.5", true),
        ("0.125", true), ("1.638", true), ("16.383", false), ("0.0001", false), ("5.0", true), ("100.00", true),
        ("-1", false), ("-0", false), ("1e2", false), ("1234567", false),
    ])
    func smallNumbersArePackedOnlyWhenTheyFit(_ text: String, _ isPacked: Bool) throws {
        let (small, integer, double) = try read(text) { view in
            (view.nodes[0].small, view.integer(at: 0, as: Int.self), view.double(at: 0))
        }
        #expect((small != 0) == isPacked, "\(text)")
        #expect(double?.bitPattern == Double(text)!.bitPattern, "\(text)")
        let exact = Double(text)!
        #expect(integer == (exact == exact.rounded() ? Int(exact) : nil), "\(text)")
    }

    @Test func everySmallNumberReadsAsItsText() throws {
        for digits in stride(from: 0, through: 99_999, by: 7) {
            var text = String(digits)
            let point = Int.random(in: 0...min(3, text.count))
            if point > 0 && point < text.count { text.insert(".", at: text.index(text.endIndex, offsetBy: -point)) }
            let (integer, double) = try read(text) { ($0.integer(at: 0, as: Int.self), $0.double(at: 0)) }
            #expect(double?.bitPattern == Double(text)!.bitPattern, "\(text)")
            if !text.contains(".") { #expect(integer == digits, "\(text)") }
        }
    }
}
