import Foundation

/// How much of the tz database the zone property tests cover. CI runs the defaults, sized to finish in seconds on
/// two cores; `scripts/zones` runs a longer sweep by setting the environment:
///
/// - `TALLY_ZONE_YEARS` (`FIRST-LAST`, default `1840-2040`): every transition of every zone in these years.
/// - `TALLY_ZONE_CASES` (default 400): random dates in random zones (and as many at the ends of the calendar).
/// - `TALLY_ZONE_PEER_CASES` (default 3000): cases cross-checked against Python's `zoneinfo`.
/// - `TALLY_ZONE_ALL_METHODS` (`1`; default off): every method on the three dates around each transition, rather
///   than the daily chart of two of them and one other method in turn.
struct ZoneSweepSettings: Sendable {
    var firstYear = 1840
    var lastYear = 2040
    var randomCases = 400
    var peerCases = 3000
    var allMethods = false

    static let current: ZoneSweepSettings = {
        var settings = ZoneSweepSettings()
        let environment = ProcessInfo.processInfo.environment
        if let years = environment["TALLY_ZONE_YEARS"] {
            let bounds = years.split(separator: "-").compactMap { Int($0) }
            if bounds.count == 2, bounds[0] >= 1, bounds[0] <= bounds[1], bounds[1] <= 9999 {
                (settings.firstYear, settings.lastYear) = (bounds[0], bounds[1])
            }
        }
        if let cases = environment["TALLY_ZONE_CASES"].flatMap({ Int($0) }), cases >= 0 { settings.randomCases = cases }
        settings.allMethods = environment["TALLY_ZONE_ALL_METHODS"] == "1"
        if let cases = environment["TALLY_ZONE_PEER_CASES"].flatMap({ Int($0) }), cases >= 0 {
            settings.peerCases = cases
        }
        return settings
    }()

    /// Seconds since 1970 of the first instant of `firstYear` and of the year after `lastYear`, in UTC.
    var span: (start: Double, end: Double) {
        func yearStart(_ year: Int) -> Double {
            // Days from 1970 to 1 January of `year` by the Gregorian rule (the proleptic calendar Tally uses).
            let previous = year - 1
            let days = previous * 365 + previous / 4 - previous / 100 + previous / 400 - 719_162
            return Double(days * 86_400)
        }
        return (yearStart(firstYear), yearStart(lastYear + 1))
    }
}
