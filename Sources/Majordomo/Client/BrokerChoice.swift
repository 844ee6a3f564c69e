/// Which broker takes a client's next request: of the brokers whose connection is up, the one holding the fewest of
/// the client's requests; ties are taken in turn.
///
/// Why the fewest held rather than plain turns: a broker whose host has gone silent answers nothing, so what it holds
/// piles up and it stops being chosen at once, long before its connection is known to be lost (a heartbeat timeout
/// later); the few requests it took meanwhile are moved when it is. Under load the same rule spreads requests by how
/// fast each broker answers, as a DEALER's plain round robin cannot.
struct BrokerChoice {
    private(set) var isUp: [Bool]
    /// Requests each broker holds: sent to it (or waiting for its socket) and not answered, expired or moved.
    private(set) var held: [Int]
    private var nextTurn = 0

    init(brokers: Int) {
        isUp = Array(repeating: false, count: brokers)
        held = Array(repeating: 0, count: brokers)
    }

    var count: Int { isUp.count }

    var anyUp: Bool { isUp.contains(true) }

    /// The broker to take the next request, or `nil` when none is up. Starts each search one broker further on, so
    /// that equals share the load.
    mutating func choose() -> Int? {
        var best: Int?
        for offset in 0..<isUp.count {
            let broker = (nextTurn + offset) % isUp.count
            if isUp[broker], best.map({ held[broker] < held[$0] }) ?? true { best = broker }
        }
        if let best { nextTurn = (best + 1) % isUp.count }
        return best
    }

    mutating func hold(_ broker: Int) { held[broker] += 1 }

    mutating func release(_ broker: Int) { held[broker] -= 1 }

    mutating func releaseAll() { held = Array(repeating: 0, count: held.count) }

    mutating func markUp(_ broker: Int) { isUp[broker] = true }

    mutating func markDown(_ broker: Int) { isUp[broker] = false }
}
