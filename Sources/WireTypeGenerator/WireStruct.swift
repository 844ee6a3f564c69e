import TallyJSONCoding

/// One struct the generator writes: a schema object marked `"x-swift-struct": "Name"` (or `"Enclosing.Name"`),
/// its members read from the object's `properties` in their order.
struct WireStruct {
    struct Member {
        /// The member's name on the wire (`distance_m`).
        let key: String
        /// Its Swift name (`distanceMeters`).
        let name: String
        let memberType: MemberType
        /// Whether the object may leave it out (not in `required`): `nil` then, and a default of `nil` in `init`.
        let isOptional: Bool
        /// Whether a required member may be `null`.
        let isNullable: Bool
        let description: String?
        /// The Swift expression of its default, for a member that may be left out and whose schema gives one
        /// (`"default"`, or `"x-swift-default"` where Swift spells it otherwise): the member is then not optional,
        /// and a request that leaves it out gets the default.
        var defaultValue: String? = nil
        /// Whether it is left out when empty rather than written as `[]` (`"x-swift-omit-empty"`: the lists Swift
        /// clients have always left out).
        var omitsWhenEmpty = false
        /// Whether a reader may read it its own way (`"x-swift-selective"`: the worker passes over the exercises
        /// of the workouts a method does not show): its direct reads then also come with its read as a parameter.
        var isSelective = false

        /// Its Swift type, `?` included for a member that may be null, or left out without a default.
        var type: String { memberType.swift + (mayBeNil ? "?" : "") }
        /// Whether its Swift value may be `nil`: null, or left out with no default.
        var mayBeNil: Bool { (isOptional && defaultValue == nil) || isNullable }
        /// The default of its argument in the memberwise `init`, for a member the object may leave out: what leaving
        /// it out means, its default or `nil`.
        var argumentDefault: String? { defaultValue ?? (isOptional && mayBeNil ? "nil" : nil) }
    }

    /// The Swift name, with its enclosing type (`HistoryDashboard.HourResult`).
    let name: String
    let description: String?
    let members: [Member]
    /// Where it is written, for messages.
    let source: String
    /// Whether it also reads itself from a plain JSON object without Codable's containers (`JSONFastDecodable`:
    /// elements of request lists that arrive by the thousand), or writes itself so (`JSONFastEncodable`: elements
    /// of result lists): `"x-swift-fast-path": "decode"` or `"encode"`.
    let fastPath: FastPath?

    /// The groups of members it embeds flat (`allOf` of a method's params: the time frame, the goal keys), each one
    /// Swift member; empty for other structs.
    var parts: [Part] = []
    /// Its own members in the order Swift writes and reads them: the schema's, unless `"x-swift-write-order"` gives
    /// the order Swift clients have always sent them in (so that their bytes do not change). Its `CodingKeys`, its
    /// coding and its fast paths follow this order; its declaration and `init` follow the schema's.
    var written: [Member]
    /// What else is generated with it.
    var role = Role.wire
    /// Whether the object may be `null` as well (params that may be left out, `null` or `{}`).
    var acceptsNull = false

    enum FastPath: String {
        case decode, encode
    }

    enum Role {
        /// A wire struct, coded by its synthesized conformances unless it needs more (`needsCodingOfItsOwn`).
        case wire
        /// A method's params (`methods/NAME.params.schema.json`), `Method.Params`: read directly member by member
        /// (`DirectMembers`), so that a worker can read some members its own way.
        case params
        /// A group of members that params embed flat (`"x-swift-member"` on its object), read member by member.
        case part
        /// A hand-written type that params embed flat (`"x-swift-type"` beside `"x-swift-member"`): only its keys
        /// and its direct members are generated; what they make (`DirectMembers.value`) is written by hand.
        case handWrittenPart
    }

    /// A group of members embedded flat: in Swift one member of its type, read from the same object.
    struct Part {
        /// The Swift member (`time`).
        let name: String
        /// Its type (`RequestTime`, `GoalParams`).
        let type: String
        let description: String?
        /// Its wire members, for the keys its parent must not declare again.
        let keys: Set<String>
    }

    init(
        name: String, description: String?, members: [Member], source: String, fastPath: FastPath?,
        written: [Member]? = nil
    ) {
        self.name = name
        self.description = description
        self.members = members
        self.source = source
        self.fastPath = fastPath
        self.written = written ?? members
    }

    /// Members left out when `nil`: the keys are then `JSONOmittingNilMembers`, so that even an encoder that writes
    /// nil members as `null` (results) leaves them out.
    var omitsNilMembers: Bool { members.contains { $0.isOptional && $0.defaultValue == nil } }

    /// Whether it reads itself member by member through `DirectMembers`.
    var readsThroughMembers: Bool { role != .wire }

    /// Whether its `init(from:)` and `encode(to:)` are generated rather than synthesized: for defaults, parts,
    /// lists left out when empty, and params (whose coding follows `written`).
    var needsCodingOfItsOwn: Bool {
        role == .params || !parts.isEmpty || members.contains { $0.defaultValue != nil || $0.omitsWhenEmpty }
    }
}

/// Finds the structs the schemas ask for and works out each member's Swift type.
struct WireStructReader {
    let index: SchemaIndex

    /// Wire names whose Swift names are not their camelCase: the unit a wire name carries reads better spelled out
    /// in Swift, where the type says the rest.
    static let renamed = ["distance_m": "distanceMeters", "calories_kcal": "calories"]

    /// Every struct of every schema file, sorted by name (so that the output does not change with file order).
    func structs() throws(GeneratorError) -> [WireStruct] {
        var found: [WireStruct] = []
        for (file, document) in index.documents.sorted(by: { $0.key < $1.key }) {
            try collect(document, file: file, pointer: "", into: &found)
        }
        for method in try ProtocolMethod.all(in: index) {
            found.append(try params(of: method))
        }
        let names = found.map(\.name)
        if let twice = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
            throw GeneratorError("x-swift-struct \(twice) is declared twice")
        }
        return found.sorted { $0.name < $1.name }
    }

    private func collect(
        _ node: JSONValue, file: String, pointer: String, into found: inout [WireStruct]
    ) throws(GeneratorError) {
        switch node {
        case .object(let object):
            if let name = node["x-swift-struct"]?.string {
                found.append(try wireStruct(named: name, node: node, file: file, pointer: pointer))
            } else if node["x-swift-member"] != nil, let name = node["x-swift-type"]?.string {
                var part = try wireStruct(named: name, node: node, file: file, pointer: pointer)
                part.role = .handWrittenPart
                found.append(part)
            }
            for (key, value) in object.members {
                try collect(value, file: file, pointer: "\(pointer)/\(key)", into: &found)
            }
        case .array(let elements):
            for (offset, value) in elements.enumerated() {
                try collect(value, file: file, pointer: "\(pointer)/\(offset)", into: &found)
            }
        default:
            break
        }
    }

    private func wireStruct(
        named name: String, node: JSONValue, file: String, pointer: String
    ) throws(GeneratorError) -> WireStruct {
        let source = "\(file)#\(pointer)"
        guard let properties = node["properties"]?.members, !properties.isEmpty else {
            throw GeneratorError("\(source): x-swift-struct \(name) has no properties")
        }
        let required = Set(node["required"]?.elements?.compactMap(\.string) ?? [])
        var members: [WireStruct.Member] = []
        for (key, property) in properties {
            members.append(try member(key, property, required: required.contains(key), file: file, source: source))
        }
        var fastPath: WireStruct.FastPath?
        if let text = node["x-swift-fast-path"]?.string {
            guard let path = WireStruct.FastPath(rawValue: text) else {
                throw GeneratorError("\(source): x-swift-fast-path is decode or encode, not \(text)")
            }
            fastPath = path
        }
        var result = WireStruct(
            name: name, description: node["description"]?.string, members: members, source: source,
            fastPath: fastPath, written: try writeOrder(of: node, members, at: source))
        if node["x-swift-member"] != nil { result.role = .part }
        try checkFastPath(result)
        if result.omitsNilMembers, let nullable = members.first(where: { $0.isNullable && !$0.isOptional }) {
            throw GeneratorError(
                "\(source): \(name) leaves nil members out but requires \(nullable.key), which may be null: a type's "
                    + "nil members are either all left out or all written as null")
        }
        return result
    }

    /// The Swift type a schema node describes, and whether it may be `null`.
    func swiftType(
        of node: JSONValue, file: String, at path: String
    ) throws(GeneratorError) -> (MemberType, Bool) {
        let nullable = node.typeNames.contains("null")
        if let name = node["x-swift-struct"]?.string { return (.wireStruct(name), nullable) }
        if let name = node["x-swift-type"]?.string {
            if node["enum"] != nil { return (.closedSet(name), nullable) }
            if node.typeNames.contains("string") { return (.text(name), nullable) }
            let writesItself = node["x-swift-fast-path"]?.string == "encode"
            return (writesItself ? .selfWriting(name) : .named(name), nullable)
        }
        if let reference = node["$ref"]?.string {
            let target = try index.resolve(reference, from: file)
            let (type, targetNullable) = try swiftType(
                of: target.node, file: target.file, at: "\(target.file)#\(target.pointer)")
            return (type, nullable || targetNullable)
        }
        for keyword in ["oneOf", "anyOf"] {
            guard let alternatives = node[keyword]?.elements else { continue }
            let values = alternatives.filter { $0.typeNames != ["null"] }
            guard values.count == 1 else {
                throw GeneratorError("\(path): \(keyword) of \(values.count) kinds of value has no Swift type")
            }
            let (type, valueNullable) = try swiftType(of: values[0], file: file, at: "\(path)/\(keyword)")
            return (type, valueNullable || values.count < alternatives.count)
        }
        // `allOf` of one reference narrows it (a closed set to some of its values): the referenced type.
        if let parts = node["allOf"]?.elements, parts.count == 1 {
            return try swiftType(of: parts[0], file: file, at: "\(path)/allOf")
        }
        var kinds = node.typeNames.filter { $0 != "null" }
        if let values = node["enum"]?.elements ?? node["const"].map({ [$0] }) {
            // A closed set of whole numbers (the milestone tiers' days) is a number like any other; one of words is
            // a Swift enum of its own.
            let wholeNumbers = values.allSatisfy {
                switch $0 {
                case .number(let value): value == value.rounded()
                case .null: true
                default: false
                }
            }
            guard wholeNumbers else {
                throw GeneratorError("\(path): a closed set needs a name: x-swift-type on its definition")
            }
            kinds = ["integer"]
        }
        guard kinds.count == 1 else {
            throw GeneratorError("\(path): no Swift type for type \(node.typeNames), and no x-swift-type")
        }
        switch kinds[0] {
        case "integer": return (.scalar("Int"), nullable)
        case "number": return (.scalar("Double"), nullable)
        case "boolean": return (.scalar("Bool"), nullable)
        case "string": return (.scalar("String"), nullable)
        case "array":
            guard let items = node["items"] else { throw GeneratorError("\(path): an array without items") }
            let (item, itemNullable) = try swiftType(of: items, file: file, at: "\(path)/items")
            return (.array(element: item, elementNullable: itemNullable), nullable)
        case "object":
            guard let values = node["additionalProperties"], node["properties"] == nil else {
                throw GeneratorError("\(path): an object without x-swift-struct")
            }
            let (value, valueNullable) = try swiftType(of: values, file: file, at: "\(path)/additionalProperties")
            return (.dictionary(value: value, valueNullable: valueNullable), nullable)
        default:
            throw GeneratorError("\(path): no Swift type for type \(kinds[0])")
        }
    }

    /// Whether `key` is ASCII letters, digits and underscores, and not empty.
    static func isPlainName(_ key: String) -> Bool {
        !key.isEmpty
            && key.utf8.allSatisfy { byte in
                byte == UInt8(ascii: "_") || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            }
    }

    /// `flights_climbed` → `flightsClimbed`, `template_id` → `templateID`.
    static func swiftName(_ key: String) -> String {
        if let name = renamed[key] { return name }
        let words = key.split(separator: "_").map(String.init)
        return words.enumerated().map { offset, word in
            if offset == 0 { return word }
            return word == "id" ? "ID" : word.prefix(1).uppercased() + word.dropFirst()
        }.joined()
    }
}
