import Foundation
import TallyCalendar
import TallyJSONCoding

/// The time frame of a request: its zone and its "now". Every method that asks "which day is it" embeds these
/// keys directly in its params:
///
/// - `time_zone`: IANA zone name, or `utc_offset_minutes` (what the activity-calendar clients send): exactly one.
/// - `now`: RFC 3339 instant, or `today`: `yyyy-MM-dd` in that zone: exactly one.
public struct RequestTime: Codable, Sendable, Hashable {
    /// The zone, as sent.
    public enum Zone: Sendable, Hashable {
        /// An IANA zone (`time_zone`): its local days and offsets follow the zone's rules, daylight saving time
        /// included.
        case named(ZoneName)
        /// A fixed offset east of UTC in minutes (`utc_offset_minutes`, −1080…1080), which follows no daylight
        /// saving time.
        case fixedOffset(minutes: Int)
    }

    /// The reference moment, as sent.
    public enum Reference: Sendable, Hashable {
        /// An instant (`now`): today is its date in the zone, and timed items after it are future.
        case now(Timestamp)
        /// A date in the zone (`today`): a whole day, not a moment, so nothing dated that day is future.
        case today(LocalDate)
    }

    /// The zone every "which day is it" question of the request is answered in.
    public var zone: Zone
    /// What makes today: an instant or a date in `zone`.
    public var reference: Reference

    /// The frame of `zone` and `reference`, as given: a fixed offset beyond ±18 h is refused by the worker
    /// (`invalid_params`), not here.
    public init(zone: Zone, reference: Reference) {
        self.zone = zone
        self.reference = reference
    }

    /// A frame in an IANA zone at an instant.
    public init(timeZone: ZoneName, now: Instant) {
        self.init(zone: .named(timeZone), reference: .now(Timestamp(now)))
    }

    /// A frame in an IANA zone at the instant a `Date` names (`Date()`, say).
    public init(timeZone: ZoneName, now: Date) {
        self.init(timeZone: timeZone, now: Instant(now))
    }

    /// A frame in an IANA zone on a given local date.
    public init(timeZone: ZoneName, today: LocalDate) {
        self.init(zone: .named(timeZone), reference: .today(today))
    }

    /// The fixed offsets accepted, in minutes: ±18 h, as RFC 3339 and Foundation allow.
    static let offsets = -18 * 60...18 * 60

    /// The date this frame makes today: `today` as given, or the date on the zone's clock at `now` — as the
    /// worker reads it, so that a client can send dates relative to it (a goal change effective today, say).
    public var today: LocalDate {
        switch (reference, zone) {
        case (.today(let date), _): date
        case (.now(let timestamp), .named(let name)): LocalDate(at: timestamp.instant, in: name.timeZone)
        case (.now(let timestamp), .fixedOffset(let minutes)): LocalDate(at: timestamp.instant, utcOffset: minutes * 60)
        }
    }

    // Its keys (`CodingKeys`) and the reads of its members (`DirectMembers`) are generated from the schema's
    // `time_frame`; the rules the members make a frame by are written here.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let path = FieldPath(codingPath: container.codingPath)
        let name = try container.decodeIfPresent(ZoneName.self, forKey: .timeZone)
        let offset = try container.decodeIfPresent(Int.self, forKey: .utcOffsetMinutes)
        let zonePath = path + CodingKeys.timeZone
        let offsetPath = path + CodingKeys.utcOffsetMinutes
        switch (name, offset) {
        case (let name?, nil):
            zone = .named(name)
        case (nil, let minutes?):
            guard Self.offsets.contains(minutes) else {
                throw TallyError.invalidParams(offsetPath, "must be within -1080...1080")
            }
            zone = .fixedOffset(minutes: minutes)
        case (nil, nil):
            throw TallyError.invalidParams(zonePath, "is required (an IANA zone, or utc_offset_minutes)")
        case (_?, _?):
            throw TallyError.invalidParams(
                offsetPath, "give time_zone or utc_offset_minutes, not both", conflictsWith: zonePath)
        }
        let now = try container.decodeIfPresent(Timestamp.self, forKey: .now)
        let today = try container.decodeIfPresent(LocalDate.self, forKey: .today)
        switch (now, today) {
        case (let now?, nil): reference = .now(now)
        case (nil, let today?): reference = .today(today)
        case (nil, nil):
            throw TallyError.invalidParams(
                path + CodingKeys.now, "is required (an RFC 3339 instant, or today as yyyy-MM-dd)")
        case (_?, _?):
            throw TallyError.invalidParams(
                path + CodingKeys.today, "give now or today, not both", conflictsWith: path + CodingKeys.now)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch zone {
        case .named(let name): try container.encode(name, forKey: .timeZone)
        case .fixedOffset(let minutes): try container.encode(minutes, forKey: .utcOffsetMinutes)
        }
        switch reference {
        case .now(let timestamp): try container.encode(timestamp, forKey: .now)
        case .today(let date): try container.encode(date, forKey: .today)
        }
    }
}
