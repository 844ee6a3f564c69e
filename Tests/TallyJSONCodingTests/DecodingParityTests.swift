import Foundation
import TallyJSONCoding
import Testing

/// Decodes the same documents with Foundation's `JSONDecoder` and `TallyJSONDecoder` and requires the same
/// outcome: equal values, or a failure of the same kind at the same place. Tally words its errors itself
/// (`JSONDecodingError`), so the comparison is of what each decoder found wrong and where, not of its words.
@Suite struct DecodingParityTests {
    struct Inner: Codable, Equatable {
        var small: Int8
        var unsigned: UInt16?
        var list: [Int]
    }

    struct Record: Codable, Equatable {
        var date: String
        var steps: Int
        var distance: Double?
        var flags: [Bool]?
        var inner: Inner?
        var ratio: Float?
    }

    struct Document: Codable, Equatable {
        var name: String
        var records: [Record]
        var tags: [String: Int]?
    }

    /// Foundation's failure as a kind and a place: a wrong type or a null where a value is needed (`typeMismatch`,
    /// `valueNotFound`), a missing member, or a document that is not JSON (`dataCorrupted` at the root, which is
    /// also how Foundation reports a number its type cannot hold).
    static func foundationOutcome<T: Equatable>(_ decode: () throws -> T) -> String {
        do {
            return "value \(try decode())"
        } catch let error as DecodingError {
            switch error {
            case .typeMismatch(_, let context), .valueNotFound(_, let context):
                return "wrong type at \(FieldPath(codingPath: context.codingPath))"
            case .keyNotFound(let key, let context):
                return "missing at \(FieldPath(codingPath: context.codingPath + [key]))"
            case .dataCorrupted(let context):
                return "not JSON at \(FieldPath(codingPath: context.codingPath))"
            @unknown default:
                return "unknown"
            }
        } catch {
            return "other error \(type(of: error))"
        }
    }

    /// Tally's failure in the same terms. A number out of range is named at its field (Foundation names none); the
    /// comparison puts it where Foundation does, and `outOfRangeNumbersAreNamedAtTheirField` checks the field.
    static func tallyOutcome<T: Equatable>(_ decode: () throws -> T) -> String {
        do {
            return "value \(try decode())"
        } catch let error as JSONDecodingError {
            switch error.problem {
            case .wrongType: return "wrong type at \(error.path)"
            case .missing: return "missing at \(error.path)"
            case .notJSON, .outOfRange: return "not JSON at "
            case .invalid(let words): return "invalid at \(error.path): \(words)"
            }
        } catch {
            return "other error \(type(of: error))"
        }
    }

    static func compare<T: Decodable & Equatable>(_ type: T.Type, _ text: String) {
        if let foundation = try? JSONDecoder().decode(T.self, from: Data(text.utf8)),
            let tally = try? TallyJSONDecoder().decode(T.self, from: Array(text.utf8))
        {
            #expect(tally == foundation, "\(text)")
            return
        }
        let foundation = foundationOutcome { try JSONDecoder().decode(T.self, from: Data(text.utf8)) }
        let tally = tallyOutcome { try TallyJSONDecoder().decode(T.self, from: Array(text.utf8)) }
        #expect(tally == foundation, "\(text)")
    }

    static let record = #"{"date":"2026-01-01","steps":5}"#

    @Test(arguments: [
        #"{"name":"a","records":[]}"#,
        #"{"name":"a","records":[\#(record),{"date":"x","steps":-3,"distance":7100.5,"flags":[true,false]}]}"#,
        #"{"name":"a","records":[{"date":"x","steps":1,"inner":{"small":-128,"unsigned":65535,"list":[1,2,3]}}]}"#,
        #"{"name":"\u00e9\ud83d\ude00","records":[],"tags":{"a":1,"b":2}}"#,
        #"{"name":"a","records":[{"date":"x","steps":1.0,"distance":1e2}],"extra":{"deep":[[[]]]}}"#,
        #"{"name":"a","records":[{"date":"x","steps":1,"ratio":0.1}]}"#,
        // Wrong types, at every level.
        #"[]"#,
        #""text""#,
        #"null"#,
        #"{"name":1,"records":[]}"#,
        #"{"name":"a","records":{}}"#,
        #"{"name":"a","records":[1]}"#,
        #"{"name":"a","records":[null]}"#,
        #"{"name":"a","records":[\#(record),{"date":"x","steps":"9"}]}"#,
        #"{"name":"a","records":[{"date":"x","steps":true}]}"#,
        #"{"name":"a","records":[{"date":"x","steps":[]}]}"#,
        #"{"name":"a","records":[{"date":"x","steps":{}}]}"#,
        #"{"name":"a","records":[{"date":7,"steps":1}]}"#,
        #"{"name":"a","records":[{"date":"x","steps":1,"distance":"far"}]}"#,
        #"{"name":"a","records":[{"date":"x","steps":1,"flags":[true,1]}]}"#,
        #"{"name":"a","records":[{"date":"x","steps":1,"flags":[null]}]}"#,
        #"{"name":"a","records":[{"date":"x","steps":1,"inner":{"small":1,"list":[1,"2"]}}]}"#,
        #"{"name":"a","records":[{"date":"x","steps":1,"inner":[]}]}"#,
        #"{"name":"a","records":[],"tags":{"a":"b"}}"#,
        // Missing and null.
        #"{}"#,
        #"{"name":"a"}"#,
        #"{"name":null,"records":[]}"#,
        #"{"name":"a","records":[{"date":"x"}]}"#,
        #"{"name":"a","records":[{"steps":1}]}"#,
        #"{"name":"a","records":[{"date":"x","steps":null}]}"#,
        #"{"name":"a","records":[{"date":"x","steps":1,"inner":{"small":1}}]}"#,
        #"{"name":"a","records":[{"date":"x","steps":1,"distance":null,"flags":null,"inner":null}]}"#,
        // Numbers the type cannot hold.
        #"{"name":"a","records":[{"date":"x","steps":1.5}]}"#,
        #"{"name":"a","records":[{"date":"x","steps":1e300}]}"#,
        #"{"name":"a","records":[{"date":"x","steps":9223372036854775808}]}"#,
        #"{"name":"a","records":[{"date":"x","steps":1,"distance":1e400}]}"#,
        #"{"name":"a","records":[{"date":"x","steps":1,"inner":{"small":128,"list":[]}}]}"#,
        #"{"name":"a","records":[{"date":"x","steps":1,"inner":{"small":1,"unsigned":-1,"list":[]}}]}"#,
        #"{"name":"a","records":[{"date":"x","steps":1,"ratio":1e39}]}"#,
        // Syntax.
        #"{"name":"a","records":[]"#,
        #"{"name":"a","records":[]} x"#,
        #"{"name":"a\u0001","records":[NaN]}"#,
        "",
    ])
    func sameOutcomeAsFoundation(_ text: String) {
        Self.compare(Document.self, text)
    }

    @Test func sameOutcomeForTopLevelScalarsAndArrays() {
        for text in ["1", "-0", "1.5", "\"a\"", "true", "null", "[1,2]", "[1,null]", "[1,1.5]", "[]", "{}"] {
            Self.compare(Int.self, text)
            Self.compare(Double.self, text)
            Self.compare(String.self, text)
            Self.compare(Bool.self, text)
            Self.compare([Int].self, text)
            Self.compare([Int?].self, text)
            Self.compare([String: Int].self, text)
        }
    }

    @Test func firstOfDuplicateKeysWinsAsInFoundation() {
        Self.compare(Document.self, #"{"name":"first","name":"second","records":[]}"#)
    }

    /// Tally is stricter than Foundation on purpose in two places; both are refusals of input Foundation accepts.
    @Test func deliberateDifferences() throws {
        let trailingComma = Array(#"{"name":"a","records":[],}"#.utf8)
        #expect(throws: JSONDecodingError.self) { try TallyJSONDecoder().decode(Document.self, from: trailingComma) }
        #expect(throws: JSONDecodingError.self) { try TallyJSONDecoder().decode(Int.self, from: Array("1e-400".utf8)) }
        // Foundation checks a number's syntax only when converting it, so a bad number where an object was
        // expected is a type mismatch there; here it is a syntax error whatever the type.
        let leadingZero = Array(#"{"name":"a","records":[01]}"#.utf8)
        #expect {
            try TallyJSONDecoder().decode(Document.self, from: leadingZero)
        } throws: { error in
            guard case .notJSON(let syntax) = (error as? JSONDecodingError)?.problem else { return false }
            return syntax.offset == 24
        }
    }

    /// Where Foundation reports a number that its type cannot hold as invalid JSON, without a place, Tally names
    /// the member or element and quotes the number.
    @Test(arguments: [
        (#"{"name":"a","records":[{"date":"x","steps":1.5}]}"#, "records[0].steps", "1.5", JSONValueKind.integer),
        (#"{"name":"a","records":[{"date":"x","steps":1e300}]}"#, "records[0].steps", "1e300", .integer),
        (#"{"name":"a","records":[{"date":"x","steps":1,"distance":1e400}]}"#, "records[0].distance", "1e400", .number),
        (
            #"{"name":"a","records":[{"date":"x","steps":1,"inner":{"small":128,"list":[]}}]}"#,
            "records[0].inner.small", "128", .integer
        ),
        (
            #"{"name":"a","records":[{"date":"x","steps":1,"inner":{"small":1,"list":[1,2.5]}}]}"#,
            "records[0].inner.list[1]", "2.5", .integer
        ),
    ])
    func outOfRangeNumbersAreNamedAtTheirField(_ text: String, _ path: String, _ number: String, _ kind: JSONValueKind)
    {
        #expect {
            try TallyJSONDecoder().decode(Document.self, from: Array(text.utf8))
        } throws: { error in
            let error = error as? JSONDecodingError
            return error?.path.description == path && error?.problem == .outOfRange(number, expected: kind)
        }
    }

    /// Tally's words, as a service passes them on: the field, then what is wrong with it.
    @Test(arguments: [
        (#"{"name":1,"records":[]}"#, "name: must be a string, not a number"),
        (#"{"name":"a","records":{}}"#, "records: must be an array, not an object"),
        (#"{"name":"a","records":[7]}"#, "records[0]: must be an object, not a number"),
        (#"{"name":"a","records":[{"date":"x","steps":"9"}]}"#, "records[0].steps: must be an integer, not a string"),
        (
            #"{"name":"a","records":[{"date":"x","steps":1,"flags":[null]}]}"#,
            "records[0].flags[0]: must be true or false, not null"
        ),
        (#"{"name":"a","records":[{"date":"x","steps":null}]}"#, "records[0].steps: must be an integer, not null"),
        (#"{"name":"a","records":[{"date":"x"}]}"#, "records[0].steps: is required"),
        (
            #"{"name":"a","records":[{"date":"x","steps":1.5}]}"#,
            "records[0].steps: must be an integer within range, not 1.5"
        ),
        ("[]", "the document must be an object, not an array"),
        (
            #"{"name":"a","records":[]"#,
            "the document is not valid JSON: unexpected end of data inside an object at byte 24"
        ),
    ])
    func errorsSayWhereAndWhat(_ text: String, _ words: String) {
        #expect {
            try TallyJSONDecoder().decode(Document.self, from: Array(text.utf8))
        } throws: { error in
            "\(error)" == words
        }
    }

    /// A `DecodingError` that a type throws itself keeps its words and its place.
    @Test func aTypesOwnRefusalKeepsItsWordsAndPlace() {
        struct Month: Decodable {
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "'13' is not a month")
            }
        }
        struct Holder: Decodable { var months: [Month] }
        #expect {
            try TallyJSONDecoder().decode(Holder.self, from: Array(#"{"months":[13]}"#.utf8))
        } throws: { error in
            (error as? JSONDecodingError)
                == JSONDecodingError(at: FieldPath([.key("months"), .index(0)]), .invalid("'13' is not a month"))
        }
    }

    @Test func superDecoderOfAMissingKeyReadsAsNullAtThatPath() {
        struct Outer: Decodable, Equatable {
            var value: Int
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: JSONKeys.self)
                value = try container.superDecoder(forKey: .params).singleValueContainer().decode(Int.self)
            }
        }
        enum JSONKeys: String, CodingKey { case params }
        Self.compare(Outer.self, #"{"other":1}"#)
        Self.compare(Outer.self, #"{"params":3}"#)
        Self.compare(Outer.self, #"{"params":"3"}"#)
    }

    /// Members read in another order than written, nested objects read between an object's members, and
    /// duplicates: the lookup hint must never change which member is found.
    @Test func lookupsInAnyOrderFindTheSameMembers() {
        struct Scrambled: Decodable, Equatable {
            var values: [Int]
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: JSONKeys.self)
                let inner = try container.nestedContainer(keyedBy: JSONKeys.self, forKey: .inner)
                values = [
                    try container.decode(Int.self, forKey: .c), try inner.decode(Int.self, forKey: .b),
                    try container.decode(Int.self, forKey: .a), try inner.decode(Int.self, forKey: .a),
                    try container.decode(Int.self, forKey: .b), try container.decode(Int.self, forKey: .c),
                    try container.decodeIfPresent(Int.self, forKey: .missing) ?? -1,
                ]
            }
        }
        enum JSONKeys: String, CodingKey { case a, b, c, inner, missing }
        Self.compare(Scrambled.self, #"{"a":1,"inner":{"a":10,"b":20},"b":2,"c":3}"#)
        Self.compare(Scrambled.self, #"{"c":3,"b":2,"inner":{"b":20,"a":10,"a":11},"a":1}"#)
        Self.compare(Scrambled.self, #"{"a":1,"b":2,"c":3,"inner":{"a":10,"b":20},"c":4,"a":5}"#)
        Self.compare(Scrambled.self, #"{"a":1,"b":2,"c":3,"inner":{}}"#)
    }

    /// A type with a fast path: plain elements take it, every other element falls back to `init(from:)`, and the
    /// outcome is the same as Foundation's either way.
    struct FastRecord: Codable, Equatable, JSONFastDecodable {
        var day: String
        var count: Int
        var weight: Double?
        var laps: Int?

        enum CodingKeys: String, CodingKey, CaseIterable { case day, count, weight, laps }

        static let fastKeys = JSONKeySet<CodingKeys>()

        init?(fastFrom object: borrowing JSONObjectReader) {
            var day: String?
            var count: Int?
            var weight: Double?? = .some(nil)
            var laps: Int?? = .some(nil)
            for member in object.members {
                switch member.key(in: Self.fastKeys) {
                case .day: day = member.string
                case .count: count = member.int
                case .weight: weight = member.optionalDouble
                case .laps: laps = member.optionalInt
                case nil: continue
                }
            }
            guard let day, let count, let weight, let laps else { return nil }
            (self.day, self.count, self.weight, self.laps) = (day, count, weight, laps)
        }
    }

    @Test(arguments: [
        #"[{"day":"a","count":1},{"day":"b","count":2,"weight":2.5,"laps":null,"other":[1]}]"#,
        #"[{"count":1,"day":"a","laps":3,"weight":null}]"#,
        #"[{"day":"a","count":1,"day":"z"}]"#,
        #"[{"d\u0061y":"\u0061","count":1,"c\u006Fu\u006et":2}]"#,
        #"[{"day":"a long day name past fifteen bytes","count":-0,"weight":-0.0,"laps":1e1}]"#,
        #"[{"day":"a","count":1},{"day":"b"}]"#,
        #"[{"day":"a","count":1},{"day":"b","count":"2"}]"#,
        #"[{"day":"a","count":1.5}]"#,
        #"[{"day":"a","count":1,"weight":1e400}]"#,
        #"[{"day":"a","count":1,"laps":2.5}]"#,
        #"[{"day":"a","count":1,"laps":"2"}]"#,
        #"[{"day":null,"count":1}]"#,
        #"[{"day":"a","count":null}]"#,
        #"[null]"#,
        #"[[]]"#,
        #"[7]"#,
    ])
    func fastPathAgreesWithFoundation(_ text: String) {
        Self.compare([FastRecord].self, text)
    }

    @Test func largeObjectsDecodeThroughTheIndex() throws {
        let members = (0..<100).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        let text = "{\(members),\"k5\":-1}"
        let decoded = try TallyJSONDecoder().decode([String: Int].self, from: Array(text.utf8))
        #expect(decoded.count == 100)
        #expect(decoded["k5"] == 5)
        #expect(decoded["k99"] == 99)
    }
}
