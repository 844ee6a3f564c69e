/// Every method of Tally v1, in the order of Protocol/README's table: the one list of them in Swift.
///
/// The load tool's services and the CLI's areas follow from it, and `MethodCompletenessTests` holds it, the
/// worker's registry, the client's typed calls and the load tool's generators to the methods of
/// Protocol/schemas: a method added to the protocol and forgotten in one of them fails that test, by name.
package enum TallyMethods {
    /// The methods of protocol v1.
    package static let v1: [any TallyMethod.Type] = [
        HistoryMonths.self, HistoryMonth.self, HistoryDashboard.self, StreakSummary.self, WorkoutCalendar.self,
        WorkoutDay.self, WorkoutDetail.self, SystemPing.self, SystemDescribe.self,
    ]

    /// The areas of the method names (`history` of `history.month`), in order of first appearance.
    package static var areas: [String] {
        var areas: [String] = []
        for method in v1 {
            let area = String(method.name.prefix { $0 != "." })
            if !areas.contains(area) { areas.append(area) }
        }
        return areas
    }
}
