import TallyJSONCoding

/// One method of the protocol, as Protocol/schemas declares it: a `methods/NAME.params.schema.json` and its
/// `.result` twin. TallyProtocol's method table and TallyClient's typed calls are written from these, so that a
/// method is declared once, by its schemas, and the Swift that lists or calls it follows.
struct ProtocolMethod: Equatable {
    /// The method's name on the wire, `history.month`.
    let name: String
    /// The descriptions of its params and result schemas.
    let paramsDescription: String?
    let resultDescription: String?

    /// The part before the dot, `history`: the method's area, and the MDP service `tally.history` that serves it.
    var area: String { String(name.prefix { $0 != "." }) }
    var service: String { "tally.\(area)" }
    /// `system.*` methods are answered on every service.
    var isSystem: Bool { area == "system" }

    /// The Swift type that describes it in TallyProtocol: each word of the name capitalized, `HistoryMonth`.
    var typeName: String {
        name.split(whereSeparator: { $0 == "." || $0 == "_" || $0 == "-" })
            .map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// The typed call of TallyClient, `historyMonth`.
    var callName: String { typeName.prefix(1).lowercased() + typeName.dropFirst() }

    static let folder = "methods/"
    static let paramsSuffix = ".params.schema.json"
    static let resultSuffix = ".result.schema.json"

    /// Every method `index` declares: the domain's by name, then the `system` ones by name (the order of
    /// Protocol/README's table, areas as they are first met).
    /// - Throws: for a params schema without its result schema.
    static func all(in index: SchemaIndex) throws(GeneratorError) -> [ProtocolMethod] {
        var methods: [ProtocolMethod] = []
        for (path, document) in index.documents where path.hasPrefix(folder) && path.hasSuffix(paramsSuffix) {
            let name = String(path.dropFirst(folder.count).dropLast(paramsSuffix.count))
            guard let result = index.documents[folder + name + resultSuffix] else {
                throw GeneratorError("\(path): method \(name) has no \(folder)\(name)\(resultSuffix)")
            }
            methods.append(
                ProtocolMethod(
                    name: name, paramsDescription: document["description"]?.string,
                    resultDescription: result["description"]?.string))
        }
        return methods.sorted { ($0.isSystem ? 1 : 0, $0.name) < ($1.isSystem ? 1 : 0, $1.name) }
    }
}
