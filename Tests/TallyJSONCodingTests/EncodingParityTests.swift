import Foundation
import TallyJSONCoding
import Testing

/// Encodes the same values with Foundation's `JSONEncoder` (`.withoutEscapingSlashes`, as Tally configured it) and
/// `TallyJSONEncoder`: byte-identical where member order cannot differ, the same document otherwise.
@Suite struct EncodingParityTests {
    static func foundation(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    static func tally(_ value: some Encodable) throws -> [UInt8] { try TallyJSONEncoder().encodeToBytes(value) }

    @Test func scalarsAndArraysAreByteIdentical() throws {
        let doubles: [Double] = [
            0, -0.0, 5, -5, 0.1, 1e15, 1e16, 999_999_999_999_999, 1e-5, 123456.789, 1e300, .leastNonzeroMagnitude,
            0.30000000000000004,
            0.8333, 7100.5, -2.5e-10, Double.greatestFiniteMagnitude, 4503599627370496.5, 9007199254740992,
        ]
        #expect(try Self.tally(doubles) == Self.foundation(doubles))
        let floats: [Float] = [0, 1, 0.1, 3.4e38, 1e-7, -2.5]
        #expect(try Self.tally(floats) == Self.foundation(floats))
        let integers: [Int] = [0, 1, -1, 9, 10, -10, Int.max, Int.min, 1_000_000]
        #expect(try Self.tally(integers) == Self.foundation(integers))
        // Every digit count (the writer counts digits, then writes pairs from the end), either side of each power of
        // ten, and random values of every size.
        var powers: [Int] = []
        var power = 1
        for _ in 0...18 {
            powers += [power - 1, power, power + 1, -(power - 1), -power, -(power + 1)]
            if power <= Int.max / 10 { power *= 10 }
        }
        var generator = SystemRandomNumberGenerator()
        powers += (0..<2_000).map { _ in Int(truncatingIfNeeded: generator.next()) >> Int.random(in: 0...63) }
        #expect(try Self.tally(powers) == Self.foundation(powers))
        #expect(
            try Self.tally([UInt64.max, 10_000_000_000_000_000_000])
                == Self.foundation([UInt64.max, 10_000_000_000_000_000_000]))
        #expect(try Self.tally([Int8.min]) == Self.foundation([Int8.min]))
        let strings = [
            "", "plain", "a/b", "quote\"back\\slash", "\u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{7F}",
            "é€😀\u{2028}",
        ]
        #expect(try Self.tally(strings) == Self.foundation(strings))
        // Strings of every length up to 40 (the writer looks for what to escape eight bytes at a time, then one at a
        // time), with a character to escape at any place or none, among ASCII and multi-byte text.
        let alphabet: [String] = [
            "a", "Z", "7", " ", "é", "€", "😀", "\"", "\\", "\n", "\u{1}", "\u{1F}", "/", "\u{7F}", "~",
        ]
        let plain = alphabet.filter { $0.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0 != "\"" && $0 != "\\" } }
        var texts: [String] = []
        for length in 0...40 {
            for _ in 0..<20 {
                var characters = (0..<length).map { _ in plain.randomElement()! }
                if length > 0, Bool.random() { characters[Int.random(in: 0..<length)] = alphabet.randomElement()! }
                texts.append(characters.joined())
            }
        }
        #expect(try Self.tally(texts) == Self.foundation(texts))
        let mixed: [Bool?] = [true, false, nil]
        #expect(try Self.tally(mixed) == Self.foundation(mixed))
        #expect(try Self.tally(7) == Self.foundation(7))
        #expect(try Self.tally("top") == Self.foundation("top"))
        #expect(try Self.tally([[Int]]()) == Self.foundation([[Int]]()))
        #expect(try Self.tally([[1], [], [2, 3]]) == Self.foundation([[1], [], [2, 3]]))
    }

    struct Flat: Codable, Equatable {
        var name: String
        var count: Int
        var ratio: Double?
        var missing: String?
        var nested: [Inner]
        var map: [String: Double]
        var date: Date
    }

    struct Inner: Codable, Equatable {
        var values: [Int?]
        var flag: Bool
    }

    @Test func objectsEncodeTheSameDocument() throws {
        let value = Flat(
            name: "n/a", count: 3, ratio: 0.25, missing: nil,
            nested: [Inner(values: [1, nil], flag: true), Inner(values: [], flag: false)],
            map: ["x": 1.5, "y": -0.0], date: Date(timeIntervalSinceReferenceDate: 1.5))
        let tally = try Self.tally(value)
        let foundation = try Self.foundation(value)
        let tallyObject = try JSONSerialization.jsonObject(with: Data(tally)) as? NSDictionary
        let foundationObject = try JSONSerialization.jsonObject(with: Data(foundation)) as? NSDictionary
        #expect(tallyObject == foundationObject)
        #expect(try JSONDecoder().decode(Flat.self, from: Data(tally)) == value)
        // Members come in the order the type encodes them.
        #expect(String(decoding: tally, as: UTF8.self).hasPrefix(#"{"name":"n/a","count":3,"ratio":0.25,"nested":["#))
    }

    /// Several flat parts merged into one object through repeated `container(keyedBy:)` calls, as Tally's params
    /// types do.
    struct Merged: Encodable {
        enum First: String, CodingKey { case a, b }
        enum Second: String, CodingKey { case c }

        func encode(to encoder: any Encoder) throws {
            var first = encoder.container(keyedBy: First.self)
            try first.encode(1, forKey: .a)
            try first.encode([1, 2], forKey: .b)
            var second = encoder.container(keyedBy: Second.self)
            try second.encode("x", forKey: .c)
        }
    }

    @Test func repeatedKeyedContainersShareOneObject() throws {
        #expect(String(decoding: try Self.tally(Merged()), as: UTF8.self) == #"{"a":1,"b":[1,2],"c":"x"}"#)
        #expect(
            String(decoding: try Self.tally([Merged(), Merged()]), as: UTF8.self)
                == #"[{"a":1,"b":[1,2],"c":"x"},{"a":1,"b":[1,2],"c":"x"}]"#)
    }

    struct Silent: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    struct HoldsSilent: Encodable {
        var first = Silent()
        var second = 2
        var last = Silent()
    }

    @Test func valuesThatEncodeNothingBecomeEmptyObjects() throws {
        #expect(String(decoding: try Self.tally(HoldsSilent()), as: UTF8.self) == #"{"first":{},"second":2,"last":{}}"#)
        #expect(String(decoding: try Self.tally([Silent()]), as: UTF8.self) == "[{}]")
        #expect(throws: EncodingError.self) { try Self.tally(Silent()) }
    }

    @Test func nonFiniteNumbersAreRefusedWithTheirPath() throws {
        struct Holder: Encodable { var values: [Double] }
        #expect {
            try Self.tally(Holder(values: [1, .nan]))
        } throws: { error in
            guard case .invalidValue(_, let context) = error as? EncodingError else { return false }
            return context.codingPath.map(\.stringValue) == ["values", "Index 1"]
                && context.debugDescription == "Unable to encode Double.nan directly in JSON."
        }
        #expect(throws: EncodingError.self) { try Self.tally([Float.infinity]) }
    }

    struct Nested: Encodable {
        enum Keys: String, CodingKey { case outer, list, after }
        enum InnerKeys: String, CodingKey { case x }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var outer = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .outer)
            try outer.encode(1, forKey: .x)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode(true)
            var element = list.nestedContainer(keyedBy: InnerKeys.self)
            try element.encodeNil(forKey: .x)
            try container.encode("end", forKey: .after)
        }
    }

    @Test func nestedContainersInStackOrder() throws {
        #expect(
            String(decoding: try Self.tally(Nested()), as: UTF8.self)
                == #"{"outer":{"x":1},"list":[true,{"x":null}],"after":"end"}"#)
    }

    struct Interleaved: Encodable {
        enum Keys: String, CodingKey { case a, b }
        enum InnerKeys: String, CodingKey { case x }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var first = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .a)
            _ = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .b)
            try first.encode(1, forKey: .x)
        }
    }

    @Test func interleavedContainersThrowInsteadOfWritingWrongJSON() {
        #expect(throws: EncodingError.self) { try Self.tally(Interleaved()) }
    }

    @Test func roundTripsThroughTheDecoder() throws {
        let value = Flat(
            name: "\u{1}\"x\"", count: -7, ratio: nil, missing: "m", nested: [Inner(values: [nil, 3], flag: true)],
            map: [:], date: Date(timeIntervalSinceReferenceDate: -12.25))
        #expect(try TallyJSONDecoder().decode(Flat.self, from: Self.tally(value)) == value)
    }
}
