import Foundation
import TallyCalendar
import TallyCore

/// One generated situation for the zone property tests: a zone, a selected date, the request's `now`, a week
/// start, and instants that serve as one-step samples and as workouts. Every request built from it is valid
/// except where a documented edge rule refuses it, and `ZoneCaseCheck` knows which.
struct ZoneCase: CustomStringConvertible, Sendable {
    let zone: String
    /// The selected date (dashboard, month, workout day), as a day number.
    let dayNumber: Int
    /// The request's `now`, seconds since 1970, within the supported instants.
    let now: Double
    let weekStartsOnMonday: Bool
    /// Seconds since 1970, each within the supported instants: samples of one step and workout completions.
    let instants: [Double]

    var date: LocalDate { LocalDate(dayNumber: dayNumber) }
    var weekStart: String { weekStartsOnMonday ? "monday" : "sunday" }

    var description: String {
        "\(zone) date \(date) now \(RFC3339.format(Instant(Date(timeIntervalSince1970: now)), offset: 0)) \(weekStart)-first, "
            + "\(instants.count) instants"
    }

    /// The earliest and latest seconds a generated instant may take: the supported instants.
    static let instantRange: ClosedRange<Double> =
        Double(
            RFC3339.supportedInstants.lowerBound.secondsSince1970)...Double(
            RFC3339.supportedInstants.upperBound.secondsSince1970 - 1)

    /// A case around the instant `pivot`: the selected date is `dayShift` days after the clock's date at `pivot`
    /// (so a date the zone skipped, which no instant shows, is selected too), `now` lies `nowShift` seconds after
    /// `pivot`, and the instants lie `spread` seconds after it.
    init(zone: String, pivot: Double, dayShift: Int, nowShift: Int, weekStartsOnMonday: Bool, spread: [Int]) {
        let oracle = ZoneOracle(TimeZone(identifier: zone)!)
        let clamp = { (seconds: Double) in min(max(seconds, Self.instantRange.lowerBound), Self.instantRange.upperBound)
        }
        let day = oracle.wallClock(at: clamp(pivot)).dayNumber + dayShift
        self.zone = zone
        self.dayNumber = min(max(day, Int(LocalDate.earliest.dayNumber)), Int(LocalDate.latest.dayNumber))
        self.now = clamp(pivot + Double(nowShift))
        self.weekStartsOnMonday = weekStartsOnMonday
        self.instants = spread.map { clamp(pivot + Double($0)) }
    }

    // MARK: Requests

    var timeFrame: String {
        #""time_zone":"\#(zone)","now":"\#(RFC3339.format(Instant(Date(timeIntervalSince1970: now)), offset: 0))""#
    }

    /// The dates of the records: the selected date and the day before it (a date the zone skipped, when one is
    /// selected, gets a record like any other day).
    var recordDays: [Int] { [dayNumber - 1, dayNumber].filter { $0 >= Int(LocalDate.earliest.dayNumber) } }

    /// The goal of every day.
    static let goal = 9000

    /// The steps of the record on `dayNumber`: 8,997 to 9,003, so that some days miss the goal by a few steps.
    static func steps(on dayNumber: Int) -> Int { goal - 3 + (dayNumber % 7 + 7) % 7 }

    /// Records on `recordDays` and a goal log from the first supported date.
    var stepHistory: String {
        let records = recordDays.map { #"{"date":"\#(LocalDate(dayNumber: $0))","steps":\#(Self.steps(on: $0))}"# }
        return
            #""goal_log":[{"effective_date":"0001-01-01","goal":\#(Self.goal)}],"records":[\#(records.joined(separator: ","))]"#
    }

    var samples: String {
        let list = instants.map {
            #"{"start":"\#(RFC3339.format(Instant(Date(timeIntervalSince1970: $0)), offset: 0))","steps":1}"#
        }
        return #""samples":[\#(list.joined(separator: ","))]"#
    }

    var workouts: String {
        let list = instants.enumerated().map { index, instant in
            let completed = RFC3339.format(Instant(Date(timeIntervalSince1970: instant)), offset: 0)
            return #"{"id":"w\#(index)","name":"W","completed_at":"\#(completed)","exercises":[]}"#
        }
        return #""workouts":[\#(list.joined(separator: ","))]"#
    }

    func body(_ method: String, _ params: String) -> [UInt8] {
        Array(#"{"version":1,"id":"zone","method":"\#(method)","params":{\#(params)}}"#.utf8)
    }
}
