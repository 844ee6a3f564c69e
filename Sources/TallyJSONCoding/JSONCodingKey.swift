/// The coding keys this module puts in coding paths: object member names as they appear in the document, and
/// array positions as Foundation writes them (`"Index 3"`, integer value 3).
struct JSONCodingKey: CodingKey, Sendable {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = "Index \(intValue)"
        self.intValue = intValue
    }

    /// The key of `superDecoder()` and `superEncoder()`.
    static let `super` = JSONCodingKey(stringValue: "super")
}
