import TallyCore
import TallyProtocol
import Testing

@Suite struct DayStateTests {
    @Test(
        arguments: [
            (nil, 8_000, true, DayState.noData),
            (0, 8_000, true, .zero),
            (1, 8_000, true, .inProgress),
            (7_999, 8_000, true, .inProgress),
            (8_000, 8_000, true, .completed),
            (12_000, 8_000, true, .completed),
            (8_000, 8_000, false, .full),
            (7_999, 8_000, false, .inProgress),
            (0, 8_000, false, .zero),
            (nil, 8_000, false, .noData),
        ] as [(Int?, Int, Bool, DayState)])
    func aDayIsJudgedOnItsStepsAndGoal(steps: Int?, goal: Int, tracking: Bool, expected: DayState) {
        #expect(DayState(steps: steps, goal: goal, trackingEnabled: tracking) == expected)
    }

    /// 99,996 of 100,000 is a ratio that rounds to 1 at 4 decimals; the state is judged on the whole numbers.
    @Test func justBelowALargeGoalIsInProgress() {
        #expect(DayState(steps: 99_996, goal: 100_000, trackingEnabled: true) == .inProgress)
        #expect(DayState(steps: 999_999, goal: 1_000_000, trackingEnabled: true) == .inProgress)
    }

    @Test func wireNamesAreTheProtocolVocabulary() {
        #expect(DayState.allCases.map(\.rawValue) == ["completed", "in_progress", "full", "zero", "no_data", "future"])
    }
}
