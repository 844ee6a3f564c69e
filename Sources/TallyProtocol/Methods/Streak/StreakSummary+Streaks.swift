import TallyCalendar
import TallyJSONCoding

extension StreakSummary {
    /// A step streak as `current_streak` and `best_streak` show it, in one object: its length, span and steps
    /// (`figures`, the same members in both) and the one fact that sets each apart (`includes_today`,
    /// `is_current`). Members of either part read as members of the streak (`streak.days`, `streak.isCurrent`).
    @dynamicMemberLookup
    public struct StepStreak<Fact: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
        /// The streak's length, span and steps: the members both streaks have.
        public var figures: StepStreakFigures
        /// What sets this streak apart from the other: `includesToday` or `isCurrent`.
        public var fact: Fact

        /// The streak of `figures` and `fact`, written as one object.
        public init(figures: StepStreakFigures, fact: Fact) {
            self.figures = figures
            self.fact = fact
        }

        /// A member of the figures, read as the streak's own (`streak.days`, `streak.totalSteps`).
        public subscript<Value>(dynamicMember member: KeyPath<StepStreakFigures, Value>) -> Value {
            figures[keyPath: member]
        }

        /// A member of the fact, read as the streak's own (`streak.includesToday`, `streak.isCurrent`).
        public subscript<Value>(dynamicMember member: KeyPath<Fact, Value>) -> Value { fact[keyPath: member] }

        // Both parts are members of one object on the wire.
        public init(from decoder: any Decoder) throws {
            figures = try StepStreakFigures(from: decoder)
            fact = try Fact(from: decoder)
        }

        public func encode(to encoder: any Encoder) throws {
            try figures.encode(to: encoder)
            try fact.encode(to: encoder)
        }
    }

    /// The current streak as the badge shows it. Without one: days 0, total 0, dates and average null.
    public typealias CurrentStreakResult = StepStreak<IncludesToday>
    /// The longest streak ever (the more recent of equal ones). When no day ever met its goal: days 0, total 0,
    /// dates and average null.
    public typealias BestStreakResult = StepStreak<IsCurrent>

    /// What sets the current streak apart: whether today's goal is met (and so today is the streak's last day).
    public struct IncludesToday: Codable, Sendable, Hashable {
        /// Whether today's goal is met, so that today is the streak's last day; otherwise the streak ends yesterday.
        public var includesToday: Bool

        /// The fact `includesToday`, `includes_today` on the wire.
        public init(includesToday: Bool) { self.includesToday = includesToday }

        enum CodingKeys: String, CodingKey { case includesToday = "includes_today" }
    }

    /// What sets the best streak apart: whether it is the current one.
    public struct IsCurrent: Codable, Sendable, Hashable {
        /// Whether the best streak is the current one.
        public var isCurrent: Bool

        /// The fact `isCurrent`, `is_current` on the wire.
        public init(isCurrent: Bool) { self.isCurrent = isCurrent }

        enum CodingKeys: String, CodingKey { case isCurrent = "is_current" }
    }
}

// Written straight to the output like the structs generated around them (`"x-swift-fast-path": "encode"` in the
// schema): through the containers, the two streaks were a quarter of writing a streak summary.

extension StreakSummary.StepStreak: JSONFastEncodable where Fact: JSONFastEncodable {
    /// The figures' members, then the fact's, as `encode(to:)` writes them.
    @usableFromInline package func writeMembers(to object: inout JSONObjectWriter) throws {
        try figures.writeMembers(to: &object)
        try fact.writeMembers(to: &object)
    }
}

extension StreakSummary.IncludesToday: JSONFastEncodable {
    @usableFromInline package func writeMembers(to object: inout JSONObjectWriter) throws {
        object.bool("includes_today", includesToday)
    }
}

extension StreakSummary.IsCurrent: JSONFastEncodable {
    @usableFromInline package func writeMembers(to object: inout JSONObjectWriter) throws {
        object.bool("is_current", isCurrent)
    }
}
