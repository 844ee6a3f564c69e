// Text forms of the calendar values, as they travel in requests and responses. Decoding refuses impossible
// values with a message saying what is wrong, which the protocol layer reports with the field's path.

/// A calendar value that travels as its text (`2026-03-08`, `2026-03`): decoded by parsing the text, with the
/// parser's words for what is wrong, and encoded as its description.
public protocol CalendarText: Codable, CustomStringConvertible {
    /// What the parser says is wrong with a text that is not such a value, in words a caller can be shown.
    associatedtype ParseError: Error & CustomStringConvertible
    /// Reads the value's text form (`2026-03-08`, `2026-03`), refusing any other text, and impossible values.
    init(parsing text: String) throws(ParseError)
}

extension CalendarText {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            self = try Self(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)': \(error)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension LocalDate: CalendarText {}

extension YearMonth: CalendarText {
    /// Reads a `yyyy-MM` month of the years 0001–9999.
    public init(parsing text: String) throws(YearMonthParseError) {
        try self.init(parsing: text[...])
    }
}

extension WeekStart: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = WeekStart(rawValue: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not a week start: expected \"sunday\" or \"monday\"")
        }
        self = value
    }
}
