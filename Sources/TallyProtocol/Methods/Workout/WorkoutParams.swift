import TallyJSONCoding

/// One completed workout on the wire:
/// `{"id", "name", "completed_at", "template_id"?, "day_name"?, "plan"?, "exercises": [...]}`.
public struct WorkoutParams: Codable, Sendable, Hashable {
    public var id: String
    public var name: String
    /// An RFC 3339 instant with its offset; one without an offset names no moment and is refused.
    public var completedAt: Timestamp
    public var templateID: String?
    public var dayName: String?
    public var plan: PlanParams?
    public var exercises: [ExerciseParams]

    public init(
        id: String, name: String, completedAt: Timestamp, templateID: String? = nil, dayName: String? = nil,
        plan: PlanParams? = nil, exercises: [ExerciseParams]
    ) {
        self.id = id
        self.name = name
        self.completedAt = completedAt
        self.templateID = templateID
        self.dayName = dayName
        self.plan = plan
        self.exercises = exercises
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, name, plan, exercises
        case completedAt = "completed_at"
        case templateID = "template_id"
        case dayName = "day_name"
    }
}

extension WorkoutParams: JSONFastDecodable {
    static let fastKeys = JSONKeySet<CodingKeys>()

    /// The plain workout read without Codable's containers (two years of training are ~500 workouts of ~3,000
    /// exercises); anything else is `nil`, and the synthesized `init(from:)` decodes it with its usual errors.
    public init?(fastFrom object: borrowing JSONObjectReader) {
        let keys = Self.fastKeys
        var id: String?
        var name: String?
        var completedAt: Timestamp?
        var templateID: String?? = .some(nil)
        var dayName: String?? = .some(nil)
        var plan: PlanParams?? = .some(nil)
        var exercises: [ExerciseParams]?
        for member in object.members {
            switch member.key(in: keys) {
            case .id: id = member.string
            case .name: name = member.string
            case .plan: plan = member.optionalObject(of: PlanParams.self)
            case .exercises: exercises = member.array(of: ExerciseParams.self)
            case .completedAt: completedAt = member.utf8 { try? Timestamp(utf8: $0) }
            case .templateID: templateID = member.optionalString
            case .dayName: dayName = member.optionalString
            case nil: continue
            }
        }
        guard let id, let name, let completedAt, let templateID, let dayName, let plan, let exercises else {
            return nil
        }
        self.init(
            id: id, name: name, completedAt: completedAt, templateID: templateID, dayName: dayName, plan: plan,
            exercises: exercises)
    }
}
