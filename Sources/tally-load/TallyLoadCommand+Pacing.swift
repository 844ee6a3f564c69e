import ArgumentParser
import TallyCommandLine
import TallyLoad

extension TallyLoadCommand {
    /// The pacing the options give: `--stages` with `--rate` (open loop) or `--in-flight` (closed loop, also
    /// without either), starting from that rate or count; else a steady `--rate` or `--in-flight` (100 by default).
    /// - Throws: `ValidationError` for stages that do not parse or cannot run.
    func pacing() throws -> LoadRunner.Pacing {
        guard let stagesText = stages else {
            return rate.map { .openLoop(perSecond: $0) } ?? .closedLoop(inFlight: inFlight ?? 100)
        }
        let isOpen = rate != nil
        let parsed: LoadStages
        do {
            parsed = try LoadStages(
                parsing: stagesText, start: rate ?? Double(inFlight ?? 0),
                parseDuration: { DurationArgument(argument: $0)?.duration })
        } catch {
            throw ValidationError("--stages: \(error) (e.g. --stages 10s:100,30s:1000,10s:0)")
        }
        guard parsed.duration > .zero else { throw ValidationError("--stages must last longer than 0") }
        if isOpen {
            guard parsed.highestTarget <= 1_000_000 else {
                throw ValidationError("--stages: an open loop's rate must be at most 1000000/s")
            }
            guard parsed.plannedRequests > 0 else { throw ValidationError("--stages start no request at all") }
            return .openLoopStages(parsed)
        }
        guard parsed.highestTarget.rounded() >= 1, parsed.highestTarget <= 100_000 else {
            throw ValidationError("--stages: a closed loop's in-flight targets must reach 1 and be at most 100000")
        }
        return .closedLoopStages(parsed)
    }
}
