import Synchronization
import TallyTesting
import Testing

/// The budget of process-running tests: never more holders than slots, and waiters served in arrival order.
@Suite struct ProcessSlotsTests {
    @Test func neverMoreHoldersThanSlots() async {
        let slots = ProcessSlots(capacity: 3)
        let record = Record()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<40 {
                group.addTask {
                    await slots.withSlot {
                        record.enter()
                        try? await Task.sleep(for: .milliseconds(1))
                        record.leave()
                    }
                }
            }
        }
        #expect(record.most <= 3, "never more holders than slots: \(record.most)")
        // While a holder sleeps, the others take the free slots: the budget is shared, not one at a time.
        #expect(record.most > 1, "\(record.most)")
        #expect(record.holders == 0)
    }

    @Test func waitersAreServedInArrivalOrder() async throws {
        let slots = ProcessSlots(capacity: 1)
        let record = Record()
        let (release, releaser) = AsyncStream<Void>.makeStream()
        // The first holder keeps the slot until told; the others queue behind it one after another.
        let first = Task { await slots.withSlot { for await _ in release { break } } }
        #expect(await eventually { slots.waiting == 0 && record.holders == 0 })
        var waiters: [Task<Void, Never>] = []
        for index in 0..<5 {
            waiters.append(Task { await slots.withSlot { record.served(index) } })
            // Each waiter has asked before the next one starts.
            #expect(await eventually { slots.waiting == index + 1 })
        }
        releaser.yield()
        releaser.finish()
        await first.value
        for waiter in waiters { await waiter.value }
        #expect(record.order == [0, 1, 2, 3, 4])
    }
}

/// What the slots' holders did, across tasks.
final class Record: Sendable {
    private let state = Mutex<(holders: Int, most: Int, order: [Int])>((0, 0, []))

    func enter() {
        state.withLock {
            $0.holders += 1
            $0.most = max($0.most, $0.holders)
        }
    }

    func leave() { state.withLock { $0.holders -= 1 } }

    func served(_ index: Int) { state.withLock { $0.order.append(index) } }

    var holders: Int { state.withLock { $0.holders } }
    var most: Int { state.withLock { $0.most } }
    var order: [Int] { state.withLock { $0.order } }
}

extension ProcessSlotsTests {
    /// A holder of several slots leaves that many fewer to the others, and waits its turn like anyone.
    @Test func aHolderOfSeveralSlotsLeavesTheRestAndWaitsItsTurn() async throws {
        let slots = ProcessSlots(capacity: 4)
        let record = Record()
        let (release, releaser) = AsyncStream<Void>.makeStream()
        let one = Task { await slots.withSlot { for await _ in release { break } } }
        #expect(await eventually { slots.waiting == 0 })
        // Three slots are free: a request for four waits, and the single ones after it wait behind it.
        let big = Task { await slots.withSlot(count: 4) { record.served(0) } }
        #expect(await eventually { slots.waiting == 1 })
        let small = Task { await slots.withSlot { record.served(1) } }
        #expect(await eventually { slots.waiting == 2 })
        #expect(record.order.isEmpty, "nothing overtook the waiter for four slots")
        releaser.yield()
        releaser.finish()
        await one.value
        await big.value
        await small.value
        #expect(record.order == [0, 1])
    }
}

/// `.realProcesses(timeLimit:)`: the limit ends a hung test with an issue, and leaves a test within it alone.
@Suite struct RealProcessesTimeLimitTests {
    struct Failure: Error {}

    @Test func aHungTestIsCancelledWithAnIssue() async throws {
        let (started, starter) = AsyncStream<Void>.makeStream()
        let (never, holder) = AsyncStream<Void>.makeStream()
        await withKnownIssue {
            // A cancelled test's CancellationError would be an issue of its own: only the limit's is known.
            try? await RealProcessesTrait.run(
                {
                    starter.yield()
                    // Hangs until cancelled: only the limit ends it.
                    for await _ in never {}
                    try Task.checkCancellation()
                }, within: .milliseconds(10))
        } matching: {
            $0.description.contains("Time limit was exceeded")
        }
        holder.finish()
        var iterator = started.makeAsyncIterator()
        #expect(await iterator.next() != nil, "the test ran before its limit ended it")
    }

    @Test func aTestWithinItsLimitKeepsItsOwnOutcome() async throws {
        try await RealProcessesTrait.run({}, within: .seconds(600))
        await #expect(throws: Failure.self) {
            try await RealProcessesTrait.run({ throw Failure() }, within: .seconds(600))
        }
    }
}
