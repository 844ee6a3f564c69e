// Text forms of the calendar values, as they travel in requests and responses. Decoding refuses impossible
// values with a message saying what is wrong, which the protocol layer reports with the field's path.

extension LocalDate: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            self = try LocalDate(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)': \(error)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension YearMonth: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            self = try YearMonth(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)': \(error)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
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
