import TallyJSONCoding

/// Protocol/schemas as the `components.schemas` of an OpenAPI 3.1 document: each schema file's own schema and each
/// of its `$defs` a component of its own, every `$ref` pointing at one of them.
///
/// OpenAPI 3.1 takes JSON Schema 2020-12 as it is, but the schemas refer to one another by relative file paths
/// (`../common.schema.json#/$defs/local_date`), which only resolve against each file's `$id`, and tools that read
/// OpenAPI documents (client generators, validators, fuzzers) mostly follow only `#/components/schemas/NAME`. So
/// the definitions are hoisted, the `$ref`s rewritten, and `$id`, `$schema` and the Swift annotations
/// (`x-swift-*`, which mean nothing outside this repository) left out; every other keyword is copied as written.
enum OpenAPIComponents {
    /// What is not a schema of the protocol's requests and responses (the console's document).
    static let excludedFolders = ["console/"]

    /// The component of a file: its path without folders and `.schema.json` (`methods/history.month.params.schema.json`
    /// is `history.month.params`).
    static func name(ofFile path: String) -> String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        return file.hasSuffix(".schema.json") ? String(file.dropLast(".schema.json".count)) : file
    }

    /// The component of a file's definition: `common.local_date`.
    static func name(ofFile path: String, definition: String) -> String {
        "\(name(ofFile: path)).\(definition)"
    }

    static func reference(to component: String) -> JSONValue {
        JSON.object([("$ref", JSON.text("#/components/schemas/\(component)"))])
    }

    /// Every component, in the order of the files' paths and then of their definitions.
    static func schemas(_ index: SchemaIndex) throws(GeneratorError) -> [(String, JSONValue)] {
        var components: [(String, JSONValue)] = []
        for path in index.documents.keys.sorted() where !excludedFolders.contains(where: path.hasPrefix) {
            guard let document = index.documents[path] else { continue }
            if isSchemaOfItsOwn(document) {
                components.append((name(ofFile: path), try rewritten(document, in: path, index: index)))
            }
            for (definition, node) in document["$defs"]?.members ?? [] {
                components.append(
                    (name(ofFile: path, definition: definition), try rewritten(node, in: path, index: index)))
            }
        }
        return components
    }

    /// Whether a file says more than its name and definitions (`common.schema.json` only holds definitions).
    static func isSchemaOfItsOwn(_ document: JSONValue) -> Bool {
        let bookkeeping: Set<String> = ["$schema", "$id", "$defs", "title", "description"]
        return (document.members ?? []).contains { !bookkeeping.contains($0.key) && !$0.key.hasPrefix("x-") }
    }

    /// Keywords whose value is one schema, a list of schemas, or schemas by name: the places a `$ref` may stand.
    private static let schemaKeywords: Set<String> = [
        "items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
        "unevaluatedItems", "unevaluatedProperties",
    ]
    private static let schemaListKeywords: Set<String> = ["allOf", "anyOf", "oneOf", "prefixItems"]
    private static let schemaMapKeywords: Set<String> = ["properties", "patternProperties", "dependentSchemas"]
    private static let leftOut: Set<String> = ["$schema", "$id", "$defs"]

    /// A schema written in `file`, its `$ref`s pointing at components; values of other keywords (`enum`, `const`,
    /// `default`, `examples`) are data and copied as they are.
    static func rewritten(_ schema: JSONValue, in file: String, index: SchemaIndex) throws(GeneratorError) -> JSONValue
    {
        guard let members = schema.members else { return schema }
        var result: [(String, JSONValue?)] = []
        for (key, value) in members where !leftOut.contains(key) && !key.hasPrefix("x-swift") {
            if key == "$ref", let target = value.string {
                result.append((key, JSON.text(try reference(target, from: file, index: index))))
            } else if schemaKeywords.contains(key) {
                result.append((key, try rewritten(value, in: file, index: index)))
            } else if schemaListKeywords.contains(key), let elements = value.elements {
                var schemas: [JSONValue] = []
                for element in elements { schemas.append(try rewritten(element, in: file, index: index)) }
                result.append((key, .array(schemas)))
            } else if schemaMapKeywords.contains(key), let named = value.members {
                var schemas: [(String, JSONValue?)] = []
                for (name, element) in named { schemas.append((name, try rewritten(element, in: file, index: index))) }
                result.append((key, JSON.object(schemas)))
            } else {
                result.append((key, value))
            }
        }
        return JSON.object(result)
    }

    /// `#/components/schemas/NAME` for a `$ref` written in `file`: a whole file or one of its `$defs`.
    /// - Throws: for a reference that names nothing, or a part of a file that is not a definition.
    static func reference(_ target: String, from file: String, index: SchemaIndex) throws(GeneratorError) -> String {
        let located = try index.resolve(target, from: file)
        let steps = located.pointer.split(separator: "/").map(String.init)
        switch steps.count {
        case 0: return "#/components/schemas/\(name(ofFile: located.file))"
        case 2 where steps[0] == "$defs":
            return "#/components/schemas/\(name(ofFile: located.file, definition: steps[1]))"
        default:
            throw GeneratorError("\(file): $ref \(target) is neither a schema file nor one of its $defs")
        }
    }
}
