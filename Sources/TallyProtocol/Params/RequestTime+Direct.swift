import TallyCalendar

extension RequestTime.DirectMembers {
    /// The frame the members read make, exactly when `init(from:)` accepts them: one zone and one reference, an
    /// offset within ±18 h; `nil` for anything `init(from:)` refuses.
    package var value: RequestTime? {
        let zone: RequestTime.Zone
        switch (timeZone, utcOffsetMinutes) {
        case (let name?, nil): zone = .named(name)
        case (nil, let minutes?) where RequestTime.offsets.contains(minutes): zone = .fixedOffset(minutes: minutes)
        default: return nil
        }
        switch (now, today) {
        case (let now?, nil): return RequestTime(zone: zone, reference: .now(now))
        case (nil, let today?): return RequestTime(zone: zone, reference: .today(today))
        default: return nil
        }
    }
}
