import TallyJSONCoding

/// A method's params as its schema declares them, `Method.Params`: written once, in the schema, for the Swift type,
/// its standard and direct reads and its writing, as for the Python client's model.
extension WireStructReader {
    /// The params of `method`: the members of its schema's `properties`, and beside them one member per group its
    /// `allOf` embeds flat (an object with `"x-swift-member"`: the time frame, the goal keys).
    func params(of method: ProtocolMethod) throws(GeneratorError) -> WireStruct {
        let file = ProtocolMethod.folder + method.name + ProtocolMethod.paramsSuffix
        guard let node = index.documents[file] else { throw GeneratorError("\(file): no such schema") }
        let source = "\(file)#"
        var parts: [WireStruct.Part] = []
        for (offset, element) in (node["allOf"]?.elements ?? []).enumerated() {
            let path = "\(source)/allOf/\(offset)"
            guard let reference = element["$ref"]?.string else {
                throw GeneratorError("\(path): params embed a group of members by $ref")
            }
            let target = try index.resolve(reference, from: file).node
            guard let name = target["x-swift-member"]?.string,
                let type = target["x-swift-struct"]?.string ?? target["x-swift-type"]?.string
            else {
                throw GeneratorError(
                    "\(path): \(reference) is not a group params embed (x-swift-member and x-swift-struct or "
                        + "x-swift-type)")
            }
            let keys = Set(target["properties"]?.members?.map(\.key) ?? [])
            parts.append(
                WireStruct.Part(name: name, type: type, description: target["description"]?.string, keys: keys))
        }
        let required = Set(node["required"]?.elements?.compactMap(\.string) ?? [])
        var members: [WireStruct.Member] = []
        for (key, property) in node["properties"]?.members ?? [] {
            // A key of an embedded group is the group's: the params only say more of it (a bound, a description).
            if parts.contains(where: { $0.keys.contains(key) }) { continue }
            members.append(try member(key, property, required: required.contains(key), file: file, source: source))
        }
        var params = WireStruct(
            name: method.typeName + ".Params", description: node["description"]?.string, members: members,
            source: source, fastPath: nil, written: try writeOrder(of: node, members, at: source))
        params.parts = parts
        params.role = .params
        params.acceptsNull = node.typeNames.contains("null")
        let names = parts.map(\.name) + members.map(\.name)
        if let twice = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
            throw GeneratorError("\(source): two members are named \(twice) in Swift")
        }
        if params.acceptsNull, !names.isEmpty {
            throw GeneratorError("\(source): params that may be null have no members")
        }
        return params
    }
}
