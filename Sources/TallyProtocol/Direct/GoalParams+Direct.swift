import TallyCalendar
import TallyJSONCoding

extension GoalChange: JSONDirectDecodable {
    /// `{"goal": …, "effective_date": …}` read directly (`JSONDirectDecodable`): straight when written compactly in
    /// that order (as the generated decoders' straight pass reads), else member by member.
    public init?(direct cursor: inout JSONCursor) {
        var straight = cursor
        if straight.literal("{\"goal\":"), let goal = straight.int(), straight.literal(",\"effective_date\":"),
            let effectiveDate = straight.fixedText(width: 10, LocalDate.init(checkedUTF8:)), straight.literal("}")
        {
            cursor = straight
            self.init(effectiveDate: effectiveDate, goal: goal)
            return
        }
        var goal: Int?
        var effectiveDate: LocalDate?
        let read = cursor.object { key, cursor in
            if key.is("goal"), goal == nil {
                goal = cursor.int()
                return goal != nil
            }
            if key.is("effective_date"), effectiveDate == nil {
                effectiveDate = cursor.text(LocalDate.init(checkedUTF8:))
                return effectiveDate != nil
            }
            return false
        }
        guard read, let goal, let effectiveDate else { return nil }
        self.init(effectiveDate: effectiveDate, goal: goal)
    }
}

extension GoalParams {
    /// The goal keys as a direct read of flat params meets them (`goal_tracking_enabled`, `goal_log`), then the
    /// goal params they make as `init(from:)` accepts them (the log required, tracking on unless said).
    public struct DirectMembers {
        var trackingEnabled: Bool?
        var log: [GoalChange]?

        public init() {}

        /// Reads the value of `key` when it is one of the goal keys: `true` once read, `false` when it cannot be
        /// (or was read before), `nil` when the key is not one of them.
        public mutating func read(_ key: JSONKeyBytes, _ cursor: inout JSONCursor) -> Bool? {
            if key.is("goal_tracking_enabled") {
                guard trackingEnabled == nil, let enabled = cursor.bool() else { return false }
                trackingEnabled = enabled
            } else if key.is("goal_log") {
                guard log == nil, let changes = cursor.array(of: GoalChange.self) else { return false }
                log = changes
            } else {
                return nil
            }
            return true
        }

        public var value: GoalParams? {
            log.map { GoalParams(trackingEnabled: trackingEnabled ?? true, log: $0) }
        }
    }
}
