// The contract's vocabulary comes with it: a program that imports TallyProtocol writes dates and months without
// importing the module that defines them.
@_exported import TallyCalendar
import TallyJSONCoding

// What a caller sees of the codec is its errors: a request's field and what is wrong there. The codec itself stays
// inside the package, so these name its error types for the products.

/// Where in a JSON document a value is: `params.records[3].date`.
public typealias FieldPath = TallyJSONCoding.FieldPath
/// Why a document could not be decoded, and where.
public typealias JSONDecodingError = TallyJSONCoding.JSONDecodingError
/// The kinds of JSON value, as a decoding error names what a member must be and what it was.
public typealias JSONValueKind = TallyJSONCoding.JSONValueKind
/// Why a document is not RFC 8259 JSON, and where.
public typealias JSONSyntaxError = TallyJSONCoding.JSONSyntaxError
