import Foundation
@testable import TallyJSONCoding
import TallyJSONCoding
import Testing

/// `JSONCursor.int()` and `double()`: whatever they read is what the standard decoder reads, whatever the length of
/// the number, what follows it and how near the end of the document it lies; and they read every plain number that
/// fits.
@Suite struct DirectNumberTests {
    /// A random number text: sign, integer digits (a leading zero sometimes), a fraction and an exponent sometimes.
    static func randomNumber(using generator: inout some RandomNumberGenerator) -> String {
        let digits = "0123456789"
        func run(_ count: Int) -> String {
            String((0..<count).map { _ in digits.randomElement(using: &generator)! })
        }
        var text = Bool.random(using: &generator) ? "-" : ""
        let integerDigits = Int.random(in: 1...20, using: &generator)
        text +=
            Int.random(in: 0..<6, using: &generator) == 0
            ? "0" + run(integerDigits - 1)
            : String(
                "123456789".randomElement(using: &generator)!) + run(integerDigits - 1)
        if Int.random(in: 0..<3, using: &generator) == 0 {
            text += "." + run(Int.random(in: 0...12, using: &generator))
        }
        if Int.random(in: 0..<10, using: &generator) == 0 {
            text += "e" + run(Int.random(in: 1...2, using: &generator))
        }
        return text
    }

    /// Each number inside arrays that leave 0 to 9 bytes after it (the end of the document comes at every distance
    /// from the number's last digit), read by `int()` and `double()` against the standard decoder.
    @Test func numbersOfEveryLengthAtEveryDistanceFromTheEnd() {
        var generator = SystemRandomNumberGenerator()
        var problems: [String] = []
        var readDirectly = (ints: 0, doubles: 0)
        for _ in 0..<20_000 {
            let number = Self.randomNumber(using: &generator)
            let tail = String(repeating: " ", count: Int.random(in: 0...8, using: &generator))
            let document = Array("[\(number)\(tail)]".utf8)
            let standardInt = try? TallyJSONDecoder().decode([Int].self, from: document)
            let standardDouble = try? TallyJSONDecoder().decode([Double].self, from: document)
            let directInt = JSONCursor.read(document) { $0.array { $0.int() } }
            let directDouble = JSONCursor.read(document) { $0.array { $0.double() } }
            if let directInt {
                readDirectly.ints += 1
                if directInt != standardInt {
                    problems.append("\(number) as Int: \(directInt), not \(standardInt as Any)")
                }
            }
            if let directDouble {
                readDirectly.doubles += 1
                if directDouble != standardDouble {
                    problems.append("\(number) as Double: \(directDouble), not \(standardDouble as Any)")
                }
            }
            // What must be read directly: plain integers of at most 18 digits, and decimals of at most 15.
            let unsigned = number.hasPrefix("-") ? number.dropFirst() : number[...]
            let plain =
                !unsigned.contains("e") && (unsigned.count == 1 || !unsigned.hasPrefix("0"))
                && !unsigned.hasSuffix(".") && number != "-0"
            if plain, !unsigned.contains("."), unsigned.count <= 18, directInt == nil {
                problems.append("\(number): not read directly as Int")
            }
            if plain, unsigned.filter(\.isNumber).count <= 15, !(unsigned.hasPrefix("0.")), directDouble == nil {
                problems.append("\(number): not read directly as Double")
            }
        }
        #expect(problems.isEmpty, "\(problems.count) problems: \(problems.prefix(5))")
        #expect(readDirectly.ints > 1_000 && readDirectly.doubles > 1_000)
    }

    /// Every run of one digit from 1 to 19 long with any byte after it: `int()` stops exactly at the first byte that is
    /// not a digit, reading the run when it is a number JSON allows (no leading zero) of at most 18 digits, and refuses
    /// it when a fraction or an exponent follows.
    @Test func digitRunsEndWhereTheFirstNonDigitIs() {
        for length in 1...19 {
            for digit in UInt8(ascii: "0")...UInt8(ascii: "9") {
                for follower in UInt8(0)...UInt8(255) where !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(follower)
                {
                    let bytes = [UInt8](repeating: digit, count: length) + [follower] + [UInt8](repeating: 0, count: 8)
                    let (value, count) = bytes.withUnsafeBufferPointer { buffer -> (Int?, Int) in
                        var cursor = JSONCursor(
                            start: buffer.baseAddress!, end: buffer.baseAddress! + buffer.count, maxListElements: 10)
                        let value = cursor.int()
                        return (value, cursor.position - buffer.baseAddress!)
                    }
                    let text = String(repeating: Character(UnicodeScalar(digit)), count: length)
                    let allowed =
                        length <= 18 && (length == 1 || digit != UInt8(ascii: "0"))
                        && follower != UInt8(ascii: ".") && follower | 0x20 != UInt8(ascii: "e")
                    let expected = allowed ? (Int(text), length) : (nil, 0)
                    if value != expected.0 || count != expected.1 {
                        Issue.record("\(text) then \(follower): \(value as Any) after \(count) bytes")
                        return
                    }
                }
            }
        }
    }
}
