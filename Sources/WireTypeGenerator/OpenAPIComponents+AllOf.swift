import TallyJSONCoding

extension OpenAPIComponents {
    /// The components with each `allOf` of object schemas merged into the schema that names them: their
    /// `properties` and `required` become its own, their other constraints (the time frame's "exactly one of"
    /// `oneOf`s) stay as its `allOf`.
    ///
    /// The same instances validate (a property both name must satisfy both: the two are merged), but client
    /// generators read the result: openapi-python-client refuses an `allOf` of two objects one of which has a
    /// `oneOf` ("Cannot take allOf a non-object") and drops the method, as it did for the params of
    /// `history.month`, `history.dashboard` and `streak.summary`.
    static func mergingAllOf(_ components: [(String, JSONValue)]) -> [(String, JSONValue)] {
        let byName = Dictionary(components.map { ($0.0, $0.1) }, uniquingKeysWith: { first, _ in first })
        return components.map { name, schema in (name, merged(schema, from: byName)) }
    }

    private static let mergedKeywords: Set<String> = ["properties", "required", "type", "title", "description"]

    static func merged(_ schema: JSONValue, from components: [String: JSONValue]) -> JSONValue {
        guard let parts = schema["allOf"]?.elements, !parts.isEmpty, schema["type"] == .string("object") else {
            return schema
        }
        let prefix = "#/components/schemas/"
        var targets: [JSONValue] = []
        for part in parts {
            guard let reference = part["$ref"]?.string, reference.hasPrefix(prefix),
                (part.members ?? []).count == 1,
                let target = components[String(reference.dropFirst(prefix.count))], target["properties"] != nil
            else { return schema }
            targets.append(target)
        }
        var properties: [(String, JSONValue)] = []
        var required: [String] = []
        var constraints: [JSONValue] = []
        func add(_ name: String, _ property: JSONValue) {
            guard let index = properties.firstIndex(where: { $0.0 == name }) else {
                properties.append((name, property))
                return
            }
            // Both must hold: the later one's keywords join the earlier one's.
            let earlier = properties[index].1.members ?? []
            let later = (property.members ?? []).filter { member in !earlier.contains { $0.key == member.key } }
            properties[index].1 = .object(JSONObject(members: earlier + later))
        }
        for target in targets + [schema] {
            for (name, property) in target["properties"]?.members ?? [] { add(name, property) }
            for name in target["required"]?.elements?.compactMap(\.string) ?? [] where !required.contains(name) {
                required.append(name)
            }
            if target != schema {
                let rest = (target.members ?? []).filter { !mergedKeywords.contains($0.key) }
                if !rest.isEmpty { constraints.append(.object(JSONObject(members: rest))) }
            }
        }
        var members: [(String, JSONValue?)] = []
        for (key, value) in schema.members ?? [] where key != "allOf" && key != "properties" && key != "required" {
            members.append((key, value))
        }
        members.append(("properties", JSON.object(properties.map { ($0.0, $0.1) })))
        if !required.isEmpty { members.append(("required", JSON.texts(required))) }
        if !constraints.isEmpty { members.append(("allOf", .array(constraints))) }
        return JSON.object(members)
    }
}
