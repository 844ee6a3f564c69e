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
/// A test marked itself inside a marked suite holds one slot, not two.
package struct RealProcessesTrait: SuiteTrait, TestTrait, TestScoping {
    /// Slots each test case holds.
    let slots: Int

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
        try await ProcessSlots.shared.withSlot(count: slots) {
            granted = clock.now
            try await Self.$isHoldingSlot.withValue(true) { try await function() }
        }
    }
}

extension Trait where Self == RealProcessesTrait {
    /// The test or every test of the suite starts real processes: one slot of the shared budget each.
    package static var realProcesses: Self { RealProcessesTrait(slots: 1) }

    /// The test or every test of the suite starts a network of processes (hosts in namespaces, several brokers,
    /// workers and clients): `slots` of the shared budget each.
    package static func realProcesses(slots: Int) -> Self { RealProcessesTrait(slots: slots) }
}
