import TallyCalendar
import TallyJSONCoding

/// A workout's plan on the wire: `{"id": "ppl", "name": "PPL 8 weeks", "start_date": "2026-03-01", "weeks": 8}`.
/// `id` and `name` are optional and only echoed.
public struct PlanParams: Codable, Sendable, Hashable {
    public var id: String?
    public var name: String?
    public var startDate: LocalDate
    public var weeks: Int

    public init(id: String? = nil, name: String? = nil, startDate: LocalDate, weeks: Int) {
        self.id = id
        self.name = name
        self.startDate = startDate
        self.weeks = weeks
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, name, weeks
        case startDate = "start_date"
    }
}

extension PlanParams: JSONFastDecodable {
    static let fastKeys = JSONKeySet<CodingKeys>()

    /// The plain plan read without Codable's containers; anything else is `nil` (the standard path then reports it).
    public init?(fastFrom object: borrowing JSONObjectReader) {
        let keys = Self.fastKeys
        var id: String?? = .some(nil)
        var name: String?? = .some(nil)
        var startDate: LocalDate?
        var weeks: Int?
        for member in object.members {
            switch member.key(in: keys) {
            case .id: id = member.optionalString
            case .name: name = member.optionalString
            case .startDate: startDate = member.utf8 { try? LocalDate(utf8: $0) }
            case .weeks: weeks = member.int
            case nil: continue
            }
        }
        guard let id, let name, let startDate, let weeks else { return nil }
        self.init(id: id, name: name, startDate: startDate, weeks: weeks)
    }
}
