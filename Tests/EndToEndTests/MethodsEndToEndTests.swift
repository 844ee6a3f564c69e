import Foundation
import TallyCalendar
import TallyClient
import TallyProtocol
import TallyTesting
import Testing

/// Every v1 method through a real tally-broker and tally-worker: each Protocol/ example over the wire (results and
/// errors alike), and each typed call of TallyClient.
@Suite(.realProcesses) struct MethodsEndToEndTests {
    static let examples: [ProtocolExample] = (try? ProtocolExample.all()) ?? []

    @Test func everyProtocolExampleGetsItsResponseOverTheWire() async throws {
        #expect(Self.examples.count >= 30)
        let cluster = try await TallyCluster.start(workers: 2)
        let client = try makeClient([cluster.endpoint], retries: 0)
        #expect(await waitForServices(client))
        for example in Self.examples {
            let reply = try await client.send(rawBody: example.requestBody, service: example.service)
            let differences = try example.differences(inReply: reply)
            #expect(differences.isEmpty, "\(example):\n\(differences.joined(separator: "\n"))")
        }
        await client.stop()
        await cluster.stop()
    }

    static func date(_ text: String) throws -> LocalDate { try #require(LocalDate(text)) }

    static func instant(_ text: String) throws -> Timestamp { try Timestamp(parsing: text) }

    @Test func typedCallsForEveryMethod() async throws {
        try await withCluster(workers: 1) { cluster in
            let client = try makeClient([cluster.endpoint])
            #expect(await waitForServices(client))

            let newYork = try #require(ZoneName("America/New_York"))
            let time = RequestTime(
                zone: .named(newYork), reference: .now(try Self.instant("2026-11-01T15:10:00-05:00")))
            let goals = GoalParams(log: [GoalChange(effectiveDate: try Self.date("2026-01-01"), goal: 8000)])
            let records = try [
                DailyRecordParams(date: Self.date("2026-10-30"), steps: 9000),
                DailyRecordParams(date: Self.date("2026-10-31"), steps: 8500),
                DailyRecordParams(date: Self.date("2026-11-01"), steps: 8200, distanceMeters: 6100),
                DailyRecordParams(date: Self.date("2026-08-15"), steps: 100),
            ]

            let months = try await client.historyMonths(HistoryMonths.Params(time: time, records: records))
            #expect(months.months.map(\.description) == ["2026-08", "2026-10", "2026-11"])

            let month = try await client.historyMonth(
                HistoryMonth.Params(time: time, goals: goals, records: records, month: YearMonth(year: 2026, month: 10))
            )
            #expect(month.days.count == 31)
            #expect(month.rows.map(\.date.description) == ["2026-10-31", "2026-10-30"])
            #expect(month.nextMonth?.description == "2026-11")

            let samples = [
                StepSampleParams(start: try Self.instant("2026-11-01T01:30:00-04:00"), steps: 100),
                StepSampleParams(start: try Self.instant("2026-11-01T01:30:00-05:00"), steps: 250),
            ]
            let dashboard = try await client.historyDashboard(
                HistoryDashboard.Params(time: time, goals: goals, records: records, samples: samples))
            #expect(dashboard.hours?.count == 25)
            #expect(dashboard.hours?[2].steps == 250)
            #expect(dashboard.reviewPromptDue)

            do throws(TallyClientError) {
                _ = try await client.historyDashboard(
                    HistoryDashboard.Params(time: time, goals: goals, records: records, mode: .weekly))
                Issue.record("a free user's weekly chart must be refused")
            } catch {
                #expect(error.code == .proRequired)
            }

            let streak = try await client.streakSummary(
                StreakSummary.Params(time: time, goals: goals, records: records))
            #expect(streak.currentStreak?.days == 3)
            #expect(streak.today?.state == .completed)

            let workout = WorkoutParams(
                id: "w1", name: "Push", completedAt: try Self.instant("2026-10-31T23:30:00-04:00"), templateID: "push",
                exercises: [ExerciseParams(name: "Bench", sets: [SetParams(reps: 5, weight: 100, unit: .kilogram)])])
            let calendar = try await client.workoutCalendar(
                WorkoutCalendar.Params(time: time, month: YearMonth(year: 2026, month: 10), workouts: [workout]))
            #expect(calendar.markedDays.map(\.description) == ["2026-10-31"])
            let day = try await client.workoutDay(
                WorkoutDay.Params(time: time, date: try Self.date("2026-10-31"), workouts: [workout]))
            #expect(day.workouts.first?.totalVolume == 500)
            #expect(day.workouts.first?.timesLogged == 1)
            #expect(day.asOf.description == "2026-11-01")
            let detail = try await client.workoutDetail(
                WorkoutDetail.Params(time: time, workoutID: "w1", workouts: [workout]))
            #expect(detail.date.description == "2026-10-31")
            #expect(detail.workout == day.workouts.first)

            await client.stop()
        }
    }
}
