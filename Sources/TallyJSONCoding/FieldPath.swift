/// Where in a JSON document a value is: `params.records[3].date`. The decoder names the place of every error it
/// throws with one (`JSONDecodingError`), and the code that validates a request builds them from the top down for
/// its own errors, so that both speak of a field the same way.
public struct FieldPath: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// One step into the JSON document.
    public enum Component: Hashable, Sendable {
        /// A member of an object, by its name on the wire.
        case key(String)
        /// An element of an array, by its position from 0.
        case index(Int)
    }

    /// The steps from the document's root, outermost first; none for the root itself.
    public var components: [Component]

    /// The path of these steps (the root when there are none).
    public init(_ components: [Component] = []) { self.components = components }

    public init(stringLiteral value: String) {
        self.components = value.split(separator: ".").map { .key(String($0)) }
    }

    /// Reads a decoder's coding path (keys, and array positions as integer keys).
    public init(codingPath: [any CodingKey]) {
        self.components = codingPath.map { key in key.intValue.map(Component.index) ?? .key(key.stringValue) }
    }

    /// The document itself.
    public var isRoot: Bool { components.isEmpty }

    /// This path, one key deeper.
    public func key(_ name: String) -> FieldPath { FieldPath(components + [.key(name)]) }

    /// This path, one array element deeper.
    public func index(_ position: Int) -> FieldPath { FieldPath(components + [.index(position)]) }

    /// This path, one member deeper: `.params + "records"`.
    public static func + (path: FieldPath, key: String) -> FieldPath { path.key(key) }

    /// This path, one member deeper, the member named by its coding key (`.params + GoalParams.CodingKeys.log`):
    /// code that speaks of a member of a generated type names it so, and its wire name stays the schema's.
    public static func + (path: FieldPath, key: some CodingKey) -> FieldPath { path.key(key.stringValue) }

    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let name): text += text.isEmpty ? name : ".\(name)"
            case .index(let position): text += "[\(position)]"
            }
        }
        return text
    }
}
