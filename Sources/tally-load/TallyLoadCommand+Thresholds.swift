import ArgumentParser
import TallyCommandLine
import TallyLoad

extension TallyLoadCommand {
    /// The help of `--max-p95`, `--max-p99` and `--max-p999`: one sentence, each with its percentile and an example.
    static func latencyLimitHelp(_ percentile: String, example: String) -> ArgumentHelp {
        ArgumentHelp(
            "Fail (exit 4) when the \(percentile) latency of successes exceeds this, e.g. \(example); "
                + "METHOD=\(example) for one method; repeat.",
            valueName: "duration")
    }

    /// The thresholds the options give, each `LIMIT` for the whole run or `METHOD=LIMIT` for one method's rows.
    /// - Throws: `ValidationError` naming the option of a limit that does not parse.
    func thresholds() throws -> LoadThresholds {
        var limits: [LoadThresholds.Limit] = []
        for (quantity, values) in [
            (LoadThresholds.Quantity.errorRate, maxErrorRate), (.p95, maxP95), (.p99, maxP99), (.p999, maxP999),
            (.unanswered, maxUnanswered),
        ] {
            for text in values { limits.append(try Self.limit(quantity, parsing: text)) }
        }
        return LoadThresholds(limits)
    }

    static func limit(_ quantity: LoadThresholds.Quantity, parsing text: String) throws -> LoadThresholds.Limit {
        let option = "--\(quantity.rawValue)"
        let (method, limitText) = LoadThresholds.scope(of: text)
        if method?.isEmpty == true {
            throw ValidationError("\(option) '\(text)': name a method before '=', or give the limit alone")
        }
        switch quantity {
        case .errorRate:
            guard let fraction = LoadThresholds.errorRate(parsing: limitText) else {
                throw ValidationError(
                    "\(option) must be a percentage from 0% to 100% or a fraction from 0 to 1, optionally after "
                        + "METHOD= (got '\(text)')")
            }
            return LoadThresholds.Limit(.errorRate, method: method, value: fraction)
        case .p95, .p99, .p999:
            guard let latency = DurationArgument(argument: limitText) else {
                throw ValidationError(
                    "\(option) must be a duration such as 250ms, optionally after METHOD= (got '\(text)')")
            }
            guard latency.duration > .zero else { throw ValidationError("\(option) must be longer than 0") }
            return LoadThresholds.Limit(quantity, method: method, latency: latency.duration)
        case .unanswered:
            guard let limit = LoadThresholds.unanswered(parsing: limitText) else {
                throw ValidationError(
                    "\(option) must be a count (0, 10) or a percentage (1%), optionally after METHOD= (got '\(text)')")
            }
            return LoadThresholds.Limit(.unanswered, method: method, value: limit.value, isFraction: limit.isFraction)
        }
    }
}
