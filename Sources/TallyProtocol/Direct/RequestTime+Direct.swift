import TallyCalendar
import TallyJSONCoding

extension RequestTime {
    /// The time frame's members as a direct read of flat params meets them (`time_zone`, `utc_offset_minutes`,
    /// `now`, `today`), then the frame they make when they make one exactly as `init(from:)` accepts it.
    public struct DirectMembers {
        var name: ZoneName?
        var offset: Int?
        var now: Timestamp?
        var today: LocalDate?

        public init() {}

        /// Reads the value of `key` when it is one of the frame's: `true` once read, `false` when it cannot be (or
        /// was read before), `nil` when the key is not the frame's.
        public mutating func read(_ key: JSONKeyBytes, _ cursor: inout JSONCursor) -> Bool? {
            if key.is("time_zone") {
                guard name == nil, let text = cursor.string(), let zone = ZoneName(text) else { return false }
                name = zone
            } else if key.is("utc_offset_minutes") {
                guard offset == nil, let minutes = cursor.int() else { return false }
                offset = minutes
            } else if key.is("now") {
                guard now == nil, let instant = cursor.text({ try? Timestamp(utf8: $0) }) else { return false }
                now = instant
            } else if key.is("today") {
                guard today == nil, let date = cursor.text(LocalDate.init(checkedUTF8:)) else { return false }
                today = date
            } else {
                return nil
            }
            return true
        }

        /// The frame: one zone and one reference, an offset within ±18 h; `nil` for anything `init(from:)` refuses.
        public var value: RequestTime? {
            let zone: Zone
            switch (name, offset) {
            case (let name?, nil): zone = .named(name)
            case (nil, let minutes?) where abs(minutes) <= 18 * 60: zone = .fixedOffset(minutes: minutes)
            default: return nil
            }
            switch (now, today) {
            case (let now?, nil): return RequestTime(zone: zone, reference: .now(now))
            case (nil, let today?): return RequestTime(zone: zone, reference: .today(today))
            default: return nil
            }
        }
    }
}
