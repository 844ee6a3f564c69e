import Foundation
import TallyJSONCoding
import Testing
@testable import WireTypeGenerator

/// The generator on small schema folders of its own: what a schema says becomes the Swift it should, and what the
/// generator cannot say in Swift is refused with a message naming the schema and the member.
@Suite struct WireTypeGeneratorTests {
    /// Writes `files` (path → JSON text) into a new folder and generates from it.
    static func generate(_ files: [String: String]) throws -> String {
        try SwiftWriter.file(try WireStructReader(index: try schemaIndex(of: files)).structs())
    }

    /// The message of the generator's refusal of `files`.
    static func refusal(_ files: [String: String]) -> String? {
        do {
            _ = try generate(files)
            return nil
        } catch {
            return "\(error)"
        }
    }

    static let common = #"""
        {"$defs": {
          "local_date": {"x-swift-type": "LocalDate", "type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"},
          "unit": {"x-swift-type": "WeightUnit", "enum": ["kg", "lb"]}
        }}
        """#

    @Test func membersBecomeSwiftInTheSchemasOrder() throws {
        let text = try Self.generate([
            "common.schema.json": Self.common,
            "methods/thing.result.schema.json": #"""
            {"x-swift-struct": "Thing.Result", "description": "A thing.", "type": "object",
             "required": ["template_id", "distance_m", "steps", "when", "parts", "by_day"],
             "properties": {
               "template_id": {"type": "string", "description": "Its template."},
               "distance_m": {"type": ["number", "null"]},
               "steps": {"type": ["integer", "null"]},
               "when": {"$ref": "../common.schema.json#/$defs/local_date"},
               "parts": {"type": "array", "items": {"$ref": "#/$defs/part"}},
               "by_day": {"type": "object", "additionalProperties": {"type": "integer"}}
             },
             "$defs": {"part": {"x-swift-struct": "Thing.Part", "type": "object", "required": ["unit"],
                                "properties": {"unit": {"$ref": "../common.schema.json#/$defs/unit"}}}}}
            """#,
        ])
        #expect(
            text.contains(
                "extension Thing {\n    /// A thing.\n    public struct Result: Codable, Sendable, Hashable {"))
        let members = [
            "/// Its template.\n        public var templateID: String", "public var distanceMeters: Double?",
            "public var steps: Int?", "public var when: LocalDate", "public var parts: [Thing.Part]",
            "public var byDay: [String: Int]",
        ]
        try expectInOrder(members, in: text, "in the schema's order")
        #expect(text.contains("case templateID = \"template_id\""))
        #expect(text.contains("case distanceMeters = \"distance_m\""))
        // Required members, null or not: no default, and nil is written as null (plain coding keys).
        #expect(text.contains("distanceMeters: Double?, steps: Int?, when: LocalDate"))
        #expect(text.contains("enum CodingKeys: String, CodingKey, CaseIterable"))
        #expect(text.contains("public var unit: WeightUnit"))
    }

    /// The doc comment right above the first line of `text` that starts with `declaration` (indentation aside), its
    /// lines joined: what DocC reads of it, however it is wrapped.
    static func documentation(above declaration: String, in text: some StringProtocol) -> String? {
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let found = lines.firstIndex(where: { $0.hasPrefix(declaration) }) else { return nil }
        let comment = lines[..<found].reversed().prefix { $0.hasPrefix("///") }.reversed()
        return comment.map { $0.dropFirst(3).trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    /// A member without a description of its own has that of the definition whose Swift type it has, through a
    /// reference or one value beside `null`; a memberwise `init` says which arguments a call may leave out, and what
    /// each then stands for.
    @Test func membersAndMemberwiseInitsAreDocumented() throws {
        let text = try Self.generate([
            "common.schema.json": #"""
            {"$defs": {"local_date": {"x-swift-type": "LocalDate", "description": "A date.", "type": "string"}}}
            """#,
            "a.schema.json": #"""
            {"$defs": {
              "entry": {"x-swift-struct": "Entry", "type": "object", "required": ["id"],
                        "properties": {
                          "id": {"description": "Its id.", "type": "string"},
                          "day": {"oneOf": [{"$ref": "common.schema.json#/$defs/local_date"}, {"type": "null"}]},
                          "since": {"allOf": [{"$ref": "common.schema.json#/$defs/local_date"}]},
                          "tags": {"description": "Tags.", "type": "array", "default": [], "items": {"type": "string"}},
                          "note": {"description": "A note.", "type": "string"}}},
              "pair": {"x-swift-struct": "Pair", "type": "object", "required": ["left", "right"],
                       "properties": {"left": {"description": "One.", "type": "integer"},
                                      "right": {"description": "The other.", "type": "integer"}}}
            }}
            """#,
        ])
        #expect(Self.documentation(above: "public var day: LocalDate?", in: text) == "A date.", "\(text)")
        #expect(Self.documentation(above: "public var since: LocalDate?", in: text) == "A date.")
        #expect(
            Self.documentation(above: "public init(id: String", in: text)
                == "An `Entry` of these members, each described at its property. The members the JSON may leave out "
                + "default to what leaving them out means: `day`, `since` and `note` to `nil`; `tags` to `[]`. A "
                + "`nil` member is not written.")
        #expect(
            Self.documentation(above: "public init(left: Int, right: Int)", in: text)
                == "A `Pair` of these members, each described at its property.")
    }

    @Test func membersThatMayBeLeftOutDefaultToNilAndAreLeftOut() throws {
        let text = try Self.generate([
            "a.schema.json": #"""
            {"x-swift-struct": "Sparse", "type": "object", "required": ["id"],
             "properties": {"id": {"type": "string"}, "note": {"type": "string"}}}
            """#
        ])
        #expect(text.contains("public init(id: String, note: String? = nil)"))
        #expect(text.contains("enum CodingKeys: String, JSONOmittingNilMembers, CaseIterable"))
    }

    @Test func fastPathsReadAndWriteEachMemberByItsKind() throws {
        let text = try Self.generate([
            "common.schema.json": Self.common,
            "a.schema.json": #"""
            {"$defs": {
              "entry": {"x-swift-struct": "Entry", "x-swift-fast-path": "decode", "type": "object",
                        "required": ["date", "steps", "unit"],
                        "properties": {"date": {"$ref": "common.schema.json#/$defs/local_date"},
                                       "steps": {"type": "integer"}, "unit": {"$ref": "common.schema.json#/$defs/unit"},
                                       "note": {"type": ["string", "null"]}}},
              "cell": {"x-swift-struct": "Cell", "x-swift-fast-path": "encode", "type": "object",
                       "required": ["date", "level", "unit", "versions", "weights", "days", "weeks", "units"],
                       "properties": {"date": {"$ref": "common.schema.json#/$defs/local_date"},
                                      "level": {"type": ["number", "null"]},
                                      "unit": {"$ref": "common.schema.json#/$defs/unit"},
                                      "versions": {"type": "array", "items": {"type": "integer"}},
                                      "weights": {"type": "array", "items": {"type": "number"}},
                                      "days": {"type": "array", "items": {"$ref": "common.schema.json#/$defs/local_date"}},
                                      "weeks": {"type": "array", "items": {"type": "array", "items": {
                                          "anyOf": [{"$ref": "common.schema.json#/$defs/local_date"}, {"type": "null"}]}}},
                                      "units": {"type": "array", "items": {"$ref": "common.schema.json#/$defs/unit"}}}}
            }}
            """#,
        ])
        #expect(text.contains("extension Entry: JSONFastDecodable {"))
        #expect(text.contains("case .date: date = member.utf8 { try? LocalDate(utf8: $0) }"))
        #expect(text.contains("case .unit: unit = member.utf8(WeightUnit.init(utf8Symbol:))"))
        #expect(text.contains("var note: String?? = .some(nil)"))
        #expect(text.contains("case .note: note = member.optionalString"))
        #expect(text.contains("guard let date, let steps, let unit, let note else { return nil }"))
        // The direct decoder: the next member in the schema's order tried in place, any order read by name, each
        // member once, each read by its kind.
        #expect(text.contains("extension Entry: JSONDirectDecodable {"))
        #expect(text.contains("case 0: if cursor.skipKey(\"date\") { member = 0 }"))
        #expect(text.contains("} else if key.is(\"note\") {"))
        #expect(
            text.contains(
                "guard date == nil,\n                    let value = cursor.fixedText(width: 10, LocalDate.init(checkedUTF8:))\n"
            ))
        #expect(text.contains("guard steps == nil, let value = cursor.int() else { return nil }"))
        #expect(
            text.contains(
                "guard unit == nil, let value = cursor.text(WeightUnit.init(utf8Symbol:)) else { return nil }"))
        #expect(text.contains("guard note == nil, let value = cursor.nullable({ $0.string() }) else { return nil }"))
        #expect(text.contains("return Self(date: date, steps: steps, unit: unit, note: note ?? nil)"))
        // Its straight pass first: the object compact and in the schema's order, literals and values in a row; the
        // member-by-member read a function of its own, called only when the straight pass stops.
        #expect(text.contains("if let value = Self.straight(&straight) {"))
        #expect(text.contains("guard let value = Self.anyOrder(&cursor) else { return nil }"))
        #expect(text.contains("@inline(never)\n    static func anyOrder(_ cursor: inout JSONCursor) -> Self? {"))
        #expect(text.contains("static func straight(_ cursor: inout JSONCursor) -> Self? {"))
        #expect(text.contains("guard cursor.literal(\"{\\\"date\\\":\"),"))
        #expect(
            text.contains("guard cursor.literal(\",\\\"steps\\\":\"), let steps = cursor.int() else { return nil }"))
        #expect(text.contains("if cursor.literal(\",\\\"note\\\":\") {"))
        #expect(text.contains("guard cursor.literal(\"}\") else { return nil }"))
        #expect(text.contains("extension Cell: JSONFastEncodable {"))
        #expect(
            text.contains(
                """
                        object.text("date", date)
                        if let level {
                            try object.double("level", level)
                        } else {
                            object.null("level")
                        }
                        object.string("unit", unit.rawValue)
                        object.ints("versions", versions)
                        try object.doubles("weights", weights)
                        object.texts("days", days)
                        object.textRows("weeks", weeks)
                        object.names("units", units)
                """))
    }

    /// An object whose first members may be left out opens alone, and whether a comma comes before the next key is
    /// known only while reading.
    @Test func aStraightPassWhoseFirstMembersMayBeLeftOut() throws {
        let text = try Self.generate([
            "a.schema.json": #"""
            {"x-swift-struct": "Late", "x-swift-fast-path": "decode", "type": "object", "required": ["id"],
             "properties": {"note": {"type": "string"}, "id": {"type": "integer"}}}
            """#
        ])
        #expect(text.contains("guard cursor.literal(\"{\") else { return nil }\n        var written = false"))
        #expect(text.contains("if cursor.literal(\"\\\"note\\\":\") {"))
        #expect(text.contains("written = true"))
        #expect(text.contains("guard (written ? cursor.literal(\",\\\"id\\\":\") : cursor.literal(\"\\\"id\\\":\")),"))
    }

    /// A result writes every member itself: nested structs that write themselves through their own fast path, lists
    /// and maps of them too, lists of strings; anything else (a map of integers) through its `Encodable`
    /// conformance; nil members left out where the struct leaves them out, null elsewhere.
    @Test func resultsWriteNestedMembersAndLeaveOutWhatTheyLeaveOut() throws {
        let text = try Self.generate([
            "a.schema.json": #"""
            {"$defs": {
              "row": {"x-swift-struct": "Row", "x-swift-fast-path": "encode", "type": "object", "required": ["n"],
                      "properties": {"n": {"type": "integer"}}},
              "page": {"x-swift-struct": "Page", "x-swift-fast-path": "encode", "type": "object",
                       "required": ["rows", "first", "tags", "counts", "byName"],
                       "properties": {"rows": {"type": "array", "items": {"$ref": "#/$defs/row"}},
                                      "first": {"$ref": "#/$defs/row"},
                                      "tags": {"type": "array", "items": {"type": "string"}},
                                      "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
                                      "byName": {"type": "object", "additionalProperties": {"$ref": "#/$defs/row"}},
                                      "note": {"type": "string"}}}
            }}
            """#
        ])
        #expect(text.contains("extension Page: JSONFastEncodable {"))
        #expect(text.contains("try object.objects(\"rows\", rows)"))
        #expect(text.contains("try object.object(\"first\", first)"))
        #expect(text.contains("object.strings(\"tags\", tags)"))
        #expect(text.contains("try object.encodable(\"counts\", counts)"))
        #expect(text.contains("try object.objectMap(\"byName\", byName)"))
        // `note` may be left out, so Page leaves nil members out: no null for it.
        #expect(text.contains("if let note {\n            object.string(\"note\", note)\n        }\n"))
        #expect(!text.contains("object.null(\"note\")"))
    }

    /// A hand-written type is written through its fast path only when its schema says it has one.
    @Test func handWrittenTypesWriteThemselvesWhenTheSchemaSaysSo() throws {
        let text = try Self.generate([
            "a.schema.json": #"""
            {"x-swift-struct": "Card", "x-swift-fast-path": "encode", "type": "object", "required": ["fast", "slow"],
             "properties": {"fast": {"x-swift-type": "Streak", "x-swift-fast-path": "encode", "type": "object"},
                            "slow": {"x-swift-type": "Badge", "type": "object"}}}
            """#
        ])
        #expect(text.contains("try object.object(\"fast\", fast)"))
        #expect(text.contains("try object.encodable(\"slow\", slow)"))
    }

    @Test func whatSwiftCannotSayIsRefusedNamingTheMember() {
        let unnamedSet = Self.refusal([
            "a.schema.json": #"""
            {"x-swift-struct": "A", "type": "object", "required": ["mode"],
             "properties": {"mode": {"enum": ["daily", "weekly"]}}}
            """#
        ])
        #expect(
            unnamedSet?.contains("a.schema.json#/properties/mode: a closed set needs a name") == true,
            "\(unnamedSet ?? "")")

        let bothNils = Self.refusal([
            "a.schema.json": #"""
            {"x-swift-struct": "B", "type": "object", "required": ["steps"],
             "properties": {"steps": {"type": ["integer", "null"]}, "note": {"type": "string"}}}
            """#
        ])
        #expect(bothNils?.contains("B leaves nil members out but requires steps") == true, "\(bothNils ?? "")")

        let noDirectRead = Self.refusal([
            "a.schema.json": #"""
            {"x-swift-struct": "F", "x-swift-fast-path": "decode", "type": "object", "required": ["counts"],
             "properties": {"counts": {"type": "object", "additionalProperties": {"type": "integer"}}}}
            """#
        ])
        #expect(noDirectRead?.contains("for counts") == true, "\(noDirectRead ?? "")")

        let unplainKey = Self.refusal([
            "a.schema.json": #"""
            {"x-swift-struct": "K", "type": "object", "required": [], "properties": {"day-count": {"type": "integer"}}}
            """#
        ])
        #expect(
            unplainKey?.contains("the member name 'day-count' is not ASCII letters, digits and _") == true,
            "\(unplainKey ?? "")")

        let shadowing = Self.refusal([
            "a.schema.json": #"""
            {"x-swift-struct": "G", "x-swift-fast-path": "decode", "type": "object", "required": ["cursor"],
             "properties": {"cursor": {"type": "integer"}}}
            """#
        ])
        #expect(shadowing?.contains("a member named cursor has no direct decoder") == true, "\(shadowing ?? "")")

        let twice = Self.refusal([
            "a.schema.json": #"{"x-swift-struct": "D", "type": "object", "properties": {"a": {"type": "integer"}}}"#,
            "b.schema.json": #"{"x-swift-struct": "D", "type": "object", "properties": {"b": {"type": "integer"}}}"#,
        ])
        #expect(twice?.contains("x-swift-struct D is declared twice") == true, "\(twice ?? "")")

        let dangling = Self.refusal([
            "a.schema.json": #"""
            {"x-swift-struct": "E", "type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}}
            """#
        ])
        #expect(dangling?.contains("names nothing") == true, "\(dangling ?? "")")
    }

    @Test func theProtocolsSchemasGenerateTheSameTextTwice() throws {
        let schemas = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "Protocol/schemas")
        let once = try SwiftWriter.file(try WireStructReader(index: try SchemaIndex(root: schemas)).structs())
        let twice = try SwiftWriter.file(try WireStructReader(index: try SchemaIndex(root: schemas)).structs())
        #expect(once == twice)
        #expect(once.contains("public struct HourResult"), "the protocol's structs are generated")
    }
}
