/// Why a document could not be decoded, and where: the one error `TallyJSONDecoder` throws, worded by Tally for the
/// person who sent the document.
///
/// The place is a `FieldPath` (`params.records[3].steps`) and the problem reads after it (`must be an integer, not a
/// string`), so that a service can put both in front of its client as they are. A `DecodingError` that a type's own
/// `init(from:)` throws (a date that does not exist, a name outside a closed set) arrives as `.invalid` with the
/// type's words at the coding path it gave.
public struct JSONDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the value at `path`.
    public enum Problem: Hashable, Sendable, CustomStringConvertible {
        /// The bytes are not one JSON text by RFC 8259 (always at the root).
        case notJSON(JSONSyntaxError)
        /// A member the type needs is not in the object (or an array ends before an element the type needs).
        case missing
        /// The value is of another JSON type than the one needed; `found` is `.null` for an explicit null.
        case wrongType(expected: JSONValueKind, found: JSONValueKind)
        /// A number that the type cannot hold exactly: a fraction or more than 64 bits for an integer, a magnitude
        /// beyond a double's for a number. The number is given as written.
        case outOfRange(String, expected: JSONValueKind)
        /// The type refused a value of the right JSON type, in its own words (`'2025-02-30': day 30 does not exist
        /// in that month`).
        case invalid(String)

        public var description: String {
            switch self {
            case .notJSON(let syntax): "is not valid JSON: \(syntax)"
            case .missing: "is required"
            case .wrongType(let expected, let found): "must be \(expected), not \(found)"
            case .outOfRange(let number, let expected): "must be \(expected) within range, not \(number)"
            case .invalid(let words): words
            }
        }
    }

    /// The member or element that could not be decoded; the root for a document that is not JSON.
    public var path: FieldPath
    /// What is wrong there.
    public var problem: Problem

    /// The error of `problem` at `path`.
    public init(at path: FieldPath, _ problem: Problem) {
        self.path = path
        self.problem = problem
    }

    /// A value of the right JSON type that its type refuses, in the type's words, at the place of `container`: what
    /// a type's `init(from:)` throws for text it cannot read (`'Mars/Olympus' is not an IANA time zone`).
    public init(refusing words: String, in container: any SingleValueDecodingContainer) {
        self.init(at: FieldPath(codingPath: container.codingPath), .invalid(words))
    }

    /// A `DecodingError` from a type's `init(from:)`, in these terms: its coding path, and its words where it has
    /// some of its own (a missing key stays `.missing`).
    public init(_ error: DecodingError) {
        switch error {
        case .keyNotFound(let key, let context):
            self.init(at: FieldPath(codingPath: context.codingPath + [key]), .missing)
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
            self.init(at: FieldPath(codingPath: context.codingPath), .invalid(context.debugDescription))
        @unknown default:
            self.init(at: FieldPath(), .invalid("cannot be decoded"))
        }
    }

    /// `path: problem`, or the problem alone at the root.
    public var description: String { path.isRoot ? "the document \(problem)" : "\(path): \(problem)" }
}

/// The kinds of JSON value, as an error names what a member must be and what it was.
public enum JSONValueKind: Hashable, Sendable, CustomStringConvertible {
    /// `null`.
    case null
    /// `true` or `false`.
    case boolean
    /// A number without fraction (what an integer type needs; a value found is always `number`).
    case integer
    /// Any number.
    case number
    /// A string.
    case string
    /// An array.
    case array
    /// An object.
    case object

    public var description: String {
        switch self {
        case .null: "null"
        case .boolean: "true or false"
        case .integer: "an integer"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension JSONValueKind {
    /// The kind of a node on the tape.
    init(_ kind: JSONNode.Kind) {
        self =
            switch kind {
            case .null: .null
            case .true, .false: .boolean
            case .number: .number
            case .string: .string
            case .array: .array
            case .object: .object
            }
    }
}
