import Foundation
import TallyJSONCoding
import Testing
@testable import WireTypeGenerator

/// A method's params generated from its params schema: the groups its `allOf` embeds flat as one Swift member each,
/// the members with their defaults, coded and read in the order Swift writes them; and what the generator cannot
/// say of params refused, naming the schema.
@Suite struct ParamsGenerationTests {
    static func generate(_ files: [String: String]) throws -> String { try WireTypeGeneratorTests.generate(files) }
    static func refusal(_ files: [String: String]) -> String? { WireTypeGeneratorTests.refusal(files) }

    /// A generated group (the goal keys), a hand-written one (the time frame) and the closed sets the params use.
    static let common = #"""
        {"$defs": {
          "frame": {"x-swift-type": "Frame", "x-swift-member": "frame", "description": "Where.", "type": "object",
                    "properties": {"time_zone": {"type": "string"}, "today": {"type": "string"}}},
          "goals": {"x-swift-struct": "GoalKeys", "x-swift-member": "goals", "type": "object", "required": ["goal_log"],
                    "properties": {
                      "goal_tracking_enabled": {"x-swift-name": "trackingEnabled", "type": "boolean", "default": true},
                      "goal_log": {"x-swift-name": "log", "type": "array", "items": {"type": "string"}}}},
          "unit": {"x-swift-type": "WeightUnit", "enum": ["kg", "lb"]},
          "week_start": {"x-swift-type": "WeekStart", "enum": ["sunday", "monday"]}
        }}
        """#

    static let result = #"{"type": "object"}"#

    /// `sleep.night`'s params: both groups, a required member, defaults of each kind, an empty list left out, and
    /// the order Swift writes them in.
    static let night = #"""
        {"type": "object", "description": "A night.",
         "allOf": [{"$ref": "../common.schema.json#/$defs/frame"}, {"$ref": "../common.schema.json#/$defs/goals"}],
         "required": ["night"],
         "x-swift-write-order": ["night", "week_starts_on", "unit", "samples", "note"],
         "properties": {
           "today": {"description": "The frame's own, said again."},
           "note": {"type": "string"},
           "unit": {"$ref": "../common.schema.json#/$defs/unit", "default": "kg", "x-swift-default": ".kilogram"},
           "week_starts_on": {"$ref": "../common.schema.json#/$defs/week_start", "default": "sunday"},
           "samples": {"type": "array", "items": {"type": "string"}, "default": [], "x-swift-omit-empty": true},
           "night": {"type": "string"}
         }}
        """#

    static func files(night: String = Self.night) -> [String: String] {
        [
            "common.schema.json": common, "methods/sleep.night.params.schema.json": night,
            "methods/sleep.night.result.schema.json": result,
        ]
    }

    @Test func paramsEmbedTheirGroupsFlatAndTakeTheirDefaults() throws {
        let text = try Self.generate(Self.files())
        #expect(text.contains("extension SleepNight {\n    /// A night.\n    public struct Params: Codable"), "\(text)")
        #expect(text.contains("/// Where.\n        public var frame: Frame\n"))
        #expect(text.contains("public var unit: WeightUnit\n"), "a member with a default is not optional")
        #expect(
            text.contains(
                "frame: Frame, goals: GoalKeys, note: String? = nil, unit: WeightUnit = .kilogram,\n"
                    + "            weekStartsOn: WeekStart = .sunday, samples: [String] = [], night: String"), "\(text)"
        )
        // The group's key the params say more of is the group's, not a member of the params.
        #expect(!text.contains("public var today"))
        // The generated group with its Swift names and default; the hand-written one only with its keys.
        #expect(text.contains("public init(trackingEnabled: Bool = true, log: [String])"))
        #expect(text.contains("case log = \"goal_log\""))
        #expect(text.contains("extension Frame {\n    package enum CodingKeys: String, CodingKey, CaseIterable {"))
        #expect(!text.contains("public struct Frame"))
        // Each group read from the same object, then the members in the order written, with their defaults.
        let decoding = [
            "frame = try Frame(from: decoder)", "goals = try GoalKeys(from: decoder)",
            "night = try container.decode(String.self, forKey: .night)",
            "weekStartsOn = try container.decodeIfPresent(WeekStart.self, forKey: .weekStartsOn) ?? .sunday",
            "unit = try container.decodeIfPresent(WeightUnit.self, forKey: .unit) ?? .kilogram",
            "samples = try container.decodeIfPresent([String].self, forKey: .samples) ?? []",
            "note = try container.decodeIfPresent(String.self, forKey: .note)",
        ]
        try expectInOrder(decoding, in: text, "in the order written")
        #expect(text.contains("if !samples.isEmpty { try container.encode(samples, forKey: .samples) }"))
        #expect(text.contains("try container.encodeIfPresent(note, forKey: .note)"))
        #expect(
            text.contains("case night\n            case weekStartsOn = \"week_starts_on\"\n            case unit\n"))
    }

    /// The memberwise `init` of params names the members a call may leave out by the default each takes; that of
    /// params without members is their one value.
    @Test func theInitOfParamsSaysWhatACallMayLeaveOut() throws {
        let text = try Self.generate(Self.files())
        let params = try #require(text.range(of: "public struct Params"))
        #expect(
            WireTypeGeneratorTests.documentation(above: "public init(", in: text[params.lowerBound...])
                == "A `SleepNight.Params` of these members, each described at its property. The members the JSON may "
                + "leave out default to what leaving them out means: `note` to `nil`; `unit` to `.kilogram`; "
                + "`weekStartsOn` to `.sunday`; `samples` to `[]`. A `nil` member is not written.", "\(text)")
        #expect(
            WireTypeGeneratorTests.documentation(above: "public init(trackingEnabled:", in: text)
                == "A `GoalKeys` of these members, each described at its property. The members the JSON may leave out "
                + "default to what leaving them out means: `trackingEnabled` to `true`.")
        let none = try Self.generate([
            "methods/sleep.ping.params.schema.json": #"{"type": ["object", "null"], "description": "None."}"#,
            "methods/sleep.ping.result.schema.json": Self.result,
        ])
        #expect(
            WireTypeGeneratorTests.documentation(above: "public init() {}", in: none)
                == "The only `SleepPing.Params`: the method takes no params.", "\(none)")
    }

    @Test func paramsReadDirectlyThroughTheirMembersAndTheirGroups() throws {
        let text = try Self.generate(Self.files())
        #expect(text.contains("extension SleepNight.Params: JSONDirectDecodable {"))
        #expect(text.contains("package var frame = Frame.DirectMembers()\n"))
        #expect(text.contains("    package struct DirectMembers {\n"), "the reads of members are the worker's")
        #expect(text.contains("if let read = frame.read(key, &cursor) ?? goals.read(key, &cursor) { return read }"))
        #expect(
            text.contains(
                "guard weekStartsOn == nil, let value = cursor.text(WeekStart.init(utf8Symbol:)) else { return false }")
        )
        #expect(text.contains("guard let frame = frame.value, let goals = goals.value, let night else { return nil }"))
        #expect(text.contains("unit: unit ?? .kilogram"), "\(text)")
        // The hand-written group's value is its own: only its members' reads are generated.
        #expect(!text.contains("var value: Frame?"))
        #expect(text.contains("package var value: GoalKeys? {"), "the reads of members are the worker's")
    }

    @Test func paramsThatMayBeNullReadNullAsNone() throws {
        let text = try Self.generate([
            "methods/sleep.ping.params.schema.json": #"{"type": ["object", "null"], "description": "None."}"#,
            "methods/sleep.ping.result.schema.json": Self.result,
        ])
        #expect(text.contains("if !cursor.null() {\n"), "\(text)")
        #expect(text.contains("public init(from decoder: any Decoder) throws {}"))
        let withMembers = Self.refusal([
            "methods/sleep.ping.params.schema.json": #"""
            {"type": ["object", "null"], "properties": {"loud": {"type": "boolean"}}}
            """#,
            "methods/sleep.ping.result.schema.json": Self.result,
        ])
        #expect(withMembers?.contains("params that may be null have no members") == true, "\(withMembers ?? "")")
    }

    @Test func aListReadItsOwnWayIsGivenToTheReader() throws {
        let text = try Self.generate([
            "a.schema.json": #"""
            {"$defs": {
              "item": {"x-swift-struct": "Item", "x-swift-fast-path": "decode", "type": "object", "required": ["n"],
                       "properties": {"n": {"type": "integer"}}},
              "box": {"x-swift-struct": "Box", "x-swift-fast-path": "decode", "type": "object",
                      "required": ["id", "items"],
                      "properties": {"id": {"type": "string"}, "label": {"type": "string"},
                                     "items": {"x-swift-selective": true, "type": "array",
                                               "items": {"$ref": "#/$defs/item"}}}}
            }}
            """#
        ])
        #expect(
            text.contains(
                "package static func straight(_ cursor: inout JSONCursor, items read: (inout JSONCursor, Self) -> [Item]?)"
            ), "\(text)")
        #expect(text.contains("var value = Self(id: id, label: label, items: [])\n"))
        #expect(text.contains("guard let items = read(&cursor, value), cursor.literal(\"}\") else { return nil }"))
        #expect(
            text.contains("package static func anyOrder(_ cursor: inout JSONCursor, items read: (inout JSONCursor)"))
        #expect(text.contains("guard items == nil, let value = read(&cursor) else { return nil }"))
    }

    @Test func whatParamsCannotSayIsRefusedNamingTheSchema() {
        func refusal(replacing old: String, with new: String) -> String {
            let night = Self.night.replacingOccurrences(of: old, with: new)
            precondition(night != Self.night, "\(old) is in the schema")
            return Self.refusal(Self.files(night: night)) ?? "accepted"
        }
        let order = refusal(replacing: #""samples", "note"]"#, with: #""samples"]"#)
        #expect(order.contains("x-swift-write-order lists every member once"), "\(order)")
        let omitted = refusal(replacing: #""default": [], "x-swift-omit-empty""#, with: #""x-swift-omit-empty""#)
        #expect(omitted.contains("x-swift-omit-empty is for a list that defaults to none"), "\(omitted)")
        let unspelled = refusal(
            replacing: #""note": {"type": "string"}"#, with: #""note": {"type": "string", "default": {}}"#)
        #expect(
            unspelled.contains("sleep.night.params.schema.json#/properties/note: no Swift spelling"), "\(unspelled)")
        let ungrouped = refusal(replacing: "#/$defs/frame", with: "#/$defs/unit")
        #expect(ungrouped.contains("is not a group params embed"), "\(ungrouped)")
        let twice = refusal(
            replacing: #""note": {"type": "string"}"#, with: #""note": {"x-swift-name": "goals", "type": "string"}"#)
        #expect(twice.contains("two members are named goals in Swift"), "\(twice)")

        let selectiveFirst = Self.refusal([
            "a.schema.json": #"""
            {"x-swift-struct": "Box", "x-swift-fast-path": "decode", "type": "object", "required": ["items", "id"],
             "properties": {"items": {"x-swift-selective": true, "type": "array", "items": {"type": "string"}},
                            "id": {"type": "string"}}}
            """#
        ])
        #expect(selectiveFirst?.contains("x-swift-selective is for one member, written last") == true)
        let fastDefault = Self.refusal([
            "a.schema.json": #"""
            {"x-swift-struct": "Row", "x-swift-fast-path": "decode", "type": "object",
             "properties": {"count": {"type": "integer", "default": 0}}}
            """#
        ])
        #expect(fastDefault?.contains("x-swift-fast-path with a default (count) is not read") == true)
    }
}
