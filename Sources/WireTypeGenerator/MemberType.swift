/// The Swift type of a wire member, with what the generated fast paths need to know of it: how its value is read
/// from and written to JSON without Codable's containers.
indirect enum MemberType: Sendable {
    /// `String`, `Int`, `Double` or `Bool`.
    case scalar(String)
    /// A hand-written value written as text (`"x-swift-type"` on a string schema): `LocalDate`, `Timestamp`;
    /// parsed by its `init(utf8:)`, written as its `description`.
    case text(String)
    /// A closed set of names (`"x-swift-type"` on an `enum` schema): `WeightUnit`, `DayState`; parsed by its
    /// `init(utf8Symbol:)`, written as its `rawValue`.
    case closedSet(String)
    /// A generated struct (`"x-swift-struct"`).
    case wireStruct(String)
    /// Another hand-written type (`"x-swift-type"` on an object schema).
    case named(String)
    /// A hand-written type that writes itself (`"x-swift-fast-path": "encode"` beside its `"x-swift-type"`: it
    /// conforms to `JSONFastEncodable`).
    case selfWriting(String)
    case array(element: MemberType, elementNullable: Bool)
    case dictionary(value: MemberType, valueNullable: Bool)

    /// How Swift spells it.
    var swift: String {
        switch self {
        case .scalar(let name), .text(let name), .closedSet(let name), .wireStruct(let name), .named(let name),
            .selfWriting(let name):
            name
        case .array(let element, let nullable): "[\(element.swift)\(nullable ? "?" : "")]"
        case .dictionary(let value, let nullable): "[String: \(value.swift)\(nullable ? "?" : "")]"
        }
    }
}
