/// One service's requests over the last minute, in `slotCount` slots of the console's step.
///
/// Events land in the current slot; the console's ticker closes it every step (`ConsoleRecorder.tick`) and the
/// oldest slot is emptied for reuse, so the window's memory is fixed (a histogram per slot) and recording is an
/// increment. Reading sums the slots, the current one included: numbers move as requests are answered, not once
/// a step.
struct ServiceWindow: Sendable {
    /// A minute of 5-second steps.
    static let slotCount = 12
    /// Distinct error codes kept per slot; the rest count as `other` (a worker's codes are its own words).
    static let maximumCodes = 16

    struct Slot: Sendable {
        var answered = 0
        var errors: [String: Int] = [:]
        var latency = LatencyHistogram()
        /// How long the slot was current, once it is closed.
        var duration: Duration = .zero

        mutating func reset() {
            answered = 0
            if !errors.isEmpty { errors.removeAll() }
            latency.reset()
            duration = .zero
        }
    }

    private var slots = [Slot](repeating: Slot(), count: slotCount)
    private var current = 0
    /// Closed slots holding data of the window (fewer than `slotCount - 1` just after start).
    private var closed = 0

    mutating func delivered(microseconds: UInt64) {
        slots[current].answered += 1
        slots[current].latency.record(microseconds: microseconds)
    }

    /// A request answered with an error: by the broker (`answered`: it counts as an answer too) or by a worker
    /// (whose reply `delivered` counted already).
    mutating func failed(code: String, answered: Bool) {
        if answered { slots[current].answered += 1 }
        if slots[current].errors[code] != nil || slots[current].errors.count < Self.maximumCodes {
            slots[current].errors[code, default: 0] += 1
        } else {
            slots[current].errors["other", default: 0] += 1
        }
    }

    /// Closes the current slot, which lasted `duration`, and starts the next.
    mutating func advance(duration: Duration) {
        slots[current].duration = duration
        current = (current + 1) % Self.slotCount
        slots[current].reset()
        closed = min(closed + 1, Self.slotCount - 1)
    }

    /// The window's figures, with the current slot counted as lasting `currentDuration` so far.
    func reading(currentDuration: Duration) -> ClusterDocument.Window {
        var answered = 0
        var errors: [String: Int] = [:]
        var latency = LatencyHistogram()
        var duration = currentDuration
        for offset in 0...closed {
            let slot = slots[(current - offset + Self.slotCount) % Self.slotCount]
            answered += slot.answered
            errors.merge(slot.errors, uniquingKeysWith: +)
            latency.add(slot.latency)
            if offset > 0 { duration += slot.duration }
        }
        let seconds = max(duration.seconds, 0.001)
        return ClusterDocument.Window(
            seconds: duration.seconds, requestsPerSecond: Double(answered) / seconds,
            errors: errors.map { ClusterDocument.ErrorCount(code: $0.key, count: $0.value) }
                .sorted { ($1.count, $0.code) < ($0.count, $1.code) },
            p50Milliseconds: latency.value(atQuantile: 0.5).map { $0 / 1000 },
            p99Milliseconds: latency.value(atQuantile: 0.99).map { $0 / 1000 })
    }

    /// Whether nothing happened in the window.
    var isEmpty: Bool {
        (0...closed).allSatisfy { offset in
            let slot = slots[(current - offset + Self.slotCount) % Self.slotCount]
            return slot.answered == 0 && slot.errors.isEmpty
        }
    }
}

extension Duration {
    /// In seconds, as a `Double`.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// In whole microseconds, never negative.
    var microseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        return UInt64(seconds) * 1_000_000 + UInt64(attoseconds / 1_000_000_000_000)
    }
}
