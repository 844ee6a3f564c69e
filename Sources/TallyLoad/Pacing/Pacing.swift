extension LoadRunner {
    /// How requests are paced.
    package enum Pacing: Sendable, Hashable {
        /// `inFlight` requests outstanding at all times: throughput as fast as Tally answers.
        case closedLoop(inFlight: Int)
        /// Requests start on a fixed schedule whatever the answers do; latency is measured from each request's
        /// scheduled start, so a stall shows up in the latencies (no coordinated omission).
        case openLoop(perSecond: Double)
        /// The open loop's schedule, its rate following the stages.
        case openLoopStages(LoadStages)
        /// The closed loop, its in-flight count following the stages (rounded to whole requests).
        case closedLoopStages(LoadStages)

        /// For the report: `closed loop 100 in flight`, `open loop 2000/s`,
        /// `open loop stages 10s→100/s, 30s→1000/s, 10s→0/s`, `closed loop stages 10s→50, 10s→0 in flight`.
        package var text: String {
            switch self {
            case .closedLoop(let inFlight): "closed loop \(inFlight) in flight"
            case .openLoop(let perSecond): "open loop \(perSecond)/s"
            case .openLoopStages(let stages): "open loop stages \(stages.text(unit: "/s"))"
            case .closedLoopStages(let stages): "closed loop stages \(stages.text(unit: "")) in flight"
            }
        }

        /// The stages, when the pacing has them.
        package var stages: LoadStages? {
            switch self {
            case .openLoopStages(let stages), .closedLoopStages(let stages): stages
            case .closedLoop, .openLoop: nil
            }
        }

        /// The target at `seconds` into the run: requests per second or in flight.
        package func target(atSeconds seconds: Double) -> Double {
            switch self {
            case .closedLoop(let inFlight): Double(inFlight)
            case .openLoop(let perSecond): perSecond
            case .openLoopStages(let stages), .closedLoopStages(let stages): stages.target(atSeconds: seconds)
            }
        }
    }
}
