import Foundation
import Testing

/// The trait of a suite or test that starts real processes (brokers, workers, load generators, Python peers) or
/// real sockets with timers: each of its test cases runs while holding a slot of ``ProcessSlots/shared``, so that
/// only a few such tests run at once, however many Swift Testing would start.
///
/// ```swift
/// @Suite(.realProcesses) struct ClusterTests { … }
/// ```
///
/// A test marked itself inside a marked suite holds one slot, not two: the most that any of its marks asks for.
///
/// A time limit given here counts from the moment the slot is granted. Swift Testing's own `.timeLimit` counts the
/// wait for the slot too, which on a busy run can be most of it: a test that is well within its limit once it runs
/// would fail for the tests queued before it.
package struct RealProcessesTrait: SuiteTrait, TestTrait, TestScoping {
    /// Slots each test case holds.
    let slots: Int

    /// How long each test case may run once it holds its slots, if limited.
    let timeLimit: Duration?

    package var isRecursive: Bool { true }

    /// Whether the current task already holds a slot: the outer of two nested scopes (a suite's and its test's)
    /// acquires, the inner one only runs the test.
    @TaskLocal static var isHoldingSlot = false

    static let reportsTimes = ProcessInfo.processInfo.environment["TALLY_TEST_SLOT_TIMES"] != nil

    /// When the first test asked for a slot: the origin of the reported times.
    static let firstAsked = ContinuousClock.now

    package func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        // Per test case: a suite holds nothing while its tests wait for their turn.
        testCase == nil ? nil : self
    }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        if Self.isHoldingSlot {
            try await function()
            return
        }
        let clock = ContinuousClock()
        _ = Self.firstAsked
        let asked = clock.now
        var granted = asked
        defer {
            // `TALLY_TEST_SLOT_TIMES=1`: one line per test case, to size the budget and find the long ones.
            if Self.reportsTimes {
                let since = { (instant: ContinuousClock.Instant) in (instant - Self.firstAsked).formatted(.units()) }
                print(
                    "slot times: \(test.name) waited \(granted - asked), held \(clock.now - granted), "
                        + "from \(since(granted)) to \(since(clock.now))")
            }
        }
        // Every mark of the test counts, whichever of them Swift Testing runs as the outer scope.
        let marks = test.traits.compactMap { $0 as? Self }
        let slots = marks.map(\.slots).max() ?? slots
        let limit = marks.compactMap(\.timeLimit).min()
        try await ProcessSlots.shared.withSlot(count: slots) {
            granted = clock.now
            try await Self.$isHoldingSlot.withValue(true) {
                guard let limit else { return try await function() }
                try await Self.run(function, within: limit)
            }
        }
    }

    /// Runs `function`, and once `limit` has passed records an issue and cancels it; its bounded waits end on
    /// cancellation, so that a hung test fails by itself instead of holding the whole run.
    package static func run(_ function: @Sendable () async throws -> Void, within limit: Duration) async throws {
        try await withoutActuallyEscaping(function) { function in
            try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    try await function()
                    return true
                }
                group.addTask {
                    try await Task.sleep(for: limit)
                    return false
                }
                let finished = try await group.next() ?? true
                group.cancelAll()
                guard !finished else { return }
                Issue.record("Time limit was exceeded: \(limit) from when the test's slots were granted")
                // The test's own failures, once cancelled.
                while let result = await group.nextResult() {
                    if case .failure(let error) = result, !(error is CancellationError) { throw error }
                }
            }
        }
    }
}

extension Trait where Self == RealProcessesTrait {
    /// The test or every test of the suite starts real processes: one slot of the shared budget each.
    package static var realProcesses: Self { RealProcessesTrait(slots: 1, timeLimit: nil) }

    /// The test starts real processes, and a hang ends it `timeLimit` after its slot was granted, not counting its
    /// wait for the slot.
    package static func realProcesses(timeLimit: Duration) -> Self {
        RealProcessesTrait(slots: 1, timeLimit: timeLimit)
    }

    /// The test or every test of the suite starts a network of processes (hosts in namespaces, several brokers,
    /// workers and clients): `slots` of the shared budget each.
    package static func realProcesses(slots: Int) -> Self { RealProcessesTrait(slots: slots, timeLimit: nil) }
}
