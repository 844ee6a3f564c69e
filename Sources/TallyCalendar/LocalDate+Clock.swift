import Foundation

extension LocalDate {
    /// Days since 1970-01-01 of the date a clock `utcOffset` seconds east of UTC shows at `instant`, and the whole
    /// seconds elapsed on it since that date's midnight (its fraction truncated). Not clamped to the supported dates.
    public static func clockReading(at instant: Instant, utcOffset: Int) -> (dayNumber: Int, secondOfDay: Int) {
        let local = Int(instant.secondsSince1970) + utcOffset
        let (quotient, remainder) = local.quotientAndRemainder(dividingBy: 86_400)
        return remainder < 0 ? (quotient - 1, remainder + 86_400) : (quotient, remainder)
    }

    /// The date on a clock `utcOffset` seconds east of UTC at `instant`, clamped to `earliest...latest`.
    public init(at instant: Instant, utcOffset: Int) {
        self.init(dayNumber: Self.clockReading(at: instant, utcOffset: utcOffset).dayNumber)
    }

    /// The date on `timeZone`'s clock at `instant`, clamped to `earliest...latest`.
    public init(at instant: Instant, in timeZone: TimeZone) {
        self.init(at: instant, utcOffset: timeZone.secondsFromGMT(for: instant.dateOfSecond))
    }
}
