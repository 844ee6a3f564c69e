/// Monotonic time since a fixed origin, as the state machines take it.
struct MonotonicClock: Sendable {
    private let origin = ContinuousClock.now

    var now: Duration { ContinuousClock.now - origin }
}
