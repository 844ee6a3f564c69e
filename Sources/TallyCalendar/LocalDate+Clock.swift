import Foundation

extension LocalDate {
    /// Days since 1970-01-01 of the date a clock `utcOffset` seconds east of UTC shows at `instant`, and the seconds
    /// elapsed on it since that date's midnight. Not clamped to the supported dates.
    public static func clockReading(at instant: Date, utcOffset: Int) -> (dayNumber: Int, secondOfDay: Int) {
        let local = Int(instant.timeIntervalSince1970.rounded(.down)) + utcOffset
        let dayNumber = Int((Double(local) / 86_400).rounded(.down))
        return (dayNumber, local - dayNumber * 86_400)
    }

    /// The date on a clock `utcOffset` seconds east of UTC at `instant`, clamped to `earliest...latest`.
    public init(at instant: Date, utcOffset: Int) {
        self.init(dayNumber: Self.clockReading(at: instant, utcOffset: utcOffset).dayNumber)
    }

    /// The date on `timeZone`'s clock at `instant`, clamped to `earliest...latest`.
    public init(at instant: Date, in timeZone: TimeZone) {
        self.init(at: instant, utcOffset: timeZone.secondsFromGMT(for: instant))
    }
}
