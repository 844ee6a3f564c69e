import TallyCore
import TallyProtocol
import Testing

@Suite struct TemplateUsageTests {
    @Test func countsWorkoutsPerTemplate() throws {
        let workouts = [
            try WorkoutFixtures.workout("1", at: "2026-03-01T10:00:00Z", template: "push"),
            try WorkoutFixtures.workout("2", at: "2026-03-03T10:00:00Z", template: "pull"),
            try WorkoutFixtures.workout("3", at: "2026-03-05T10:00:00Z", template: "push"),
            try WorkoutFixtures.workout("4", at: "2026-03-07T10:00:00Z"),
            try WorkoutFixtures.workout("5", at: "2026-03-08T10:00:00Z", template: "push"),
        ]
        let usage = TemplateUsage(workouts)
        #expect(usage.counts == ["push": 3, "pull": 1])
        #expect(usage.timesLogged("push") == 3)
        #expect(usage.timesLogged("legs") == 0)
        #expect(TemplateUsage(templateIDs: ["push", "pull", "push", "push"]) == usage)
        #expect(TemplateUsage(templateIDs: []).counts.isEmpty)
    }
}
