import Foundation

/// A load that changes over the run, as k6's stages: each stage moves the target linearly from the previous
/// stage's target (or the starting one) to its own over its duration. In open loop the target is requests started
/// per second, in closed loop requests in flight.
///
/// `--stages 10s:100,30s:1000,10s:0` ramps up to 100 in 10 s, on to 1000 in 30 s, and down to 0 in the last 10 s:
/// a run of 50 s. A stage of `0s` is a step: its target holds from that moment on.
package struct LoadStages: Sendable, Hashable {
    /// One stage: reach `target` at the end of `duration`.
    package struct Stage: Sendable, Hashable {
        package var duration: Duration
        package var target: Double

        package init(duration: Duration, target: Double) {
            self.duration = duration
            self.target = target
        }

        var seconds: Double { Self.seconds(duration) }

        static func seconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        }
    }

    /// The target before the first stage (the rate or in-flight count given beside the stages, else 0).
    package var start: Double
    package var stages: [Stage]

    package init(start: Double = 0, stages: [Stage]) {
        self.start = start
        self.stages = stages
    }

    /// Parses `DURATION:TARGET,…`, with `parseDuration` reading each duration (the command line's own rules).
    /// - Throws: `WorkloadError` naming the stage that is not of that form, or a negative or non-finite target.
    package init(parsing text: String, start: Double = 0, parseDuration: (String) -> Duration?) throws {
        var stages: [Stage] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = item.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let duration = parseDuration(String(parts[0])), duration >= .zero,
                let target = Double(parts[1].trimmingCharacters(in: .whitespaces)), target.isFinite, target >= 0
            else {
                throw WorkloadError("'\(item)' is not DURATION:TARGET (e.g. 30s:100)")
            }
            stages.append(Stage(duration: duration, target: target))
        }
        self.init(start: start, stages: stages)
    }

    /// How long the stages last together: the run's duration.
    package var duration: Duration { stages.reduce(.zero) { $0 + $1.duration } }

    var totalSeconds: Double { stages.reduce(0) { $0 + $1.seconds } }

    /// The highest target of the run: the in-flight lanes a closed loop needs.
    package var highestTarget: Double { stages.map(\.target).reduce(start, max) }

    /// The target `seconds` into the run: linear within a stage; the last target after the end.
    package func target(atSeconds seconds: Double) -> Double {
        var previous = start
        var stageStart = 0.0
        for stage in stages {
            let stageEnd = stageStart + stage.seconds
            if seconds < stageEnd {
                let progress = max(0, seconds - stageStart) / stage.seconds
                return previous + (stage.target - previous) * progress
            }
            previous = stage.target
            stageStart = stageEnd
        }
        return previous
    }

    /// Requests an open loop starts over the whole run: the area under the rate, to the nearest whole request.
    package var plannedRequests: Int { Int((area + 0.5).rounded(.down)) }

    /// Requests due over the whole run: the area under the rate.
    var area: Double {
        stages.reduce(into: (total: 0.0, previous: start)) { sum, stage in
            sum.total += (sum.previous + stage.target) / 2 * stage.seconds
            sum.previous = stage.target
        }.total
    }

    /// When an open loop starts its `request`-th request (from 0), in seconds from the run's start: each request
    /// in the middle of its share of the rate, the moment the requests due so far (the area under the rate) reach
    /// `request + ½`. So a stage at rate 0 starts nothing, and 10 s at 100/s starts 1000 requests 10 ms apart.
    /// `nil` when the run ends first.
    package func offset(ofRequest request: Int) -> Double? {
        guard request >= 0, request < plannedRequests else { return nil }
        let wanted = Double(request) + 0.5
        var due = 0.0
        var previous = start
        var stageStart = 0.0
        for stage in stages {
            let seconds = stage.seconds
            let area = (previous + stage.target) / 2 * seconds
            if wanted <= due + area, seconds > 0, area > 0 {
                // Requests due τ into the stage: previous·τ + slope/2·τ²; solved for τ in the form that stays exact
                // when the slope is 0 and has no cancellation when it is negative.
                let remaining = wanted - due
                let halfSlope = (stage.target - previous) / (2 * seconds)
                let root = max(0, previous * previous + 4 * halfSlope * remaining).squareRoot()
                let denominator = previous + root
                return stageStart + (denominator > 0 ? min(seconds, 2 * remaining / denominator) : seconds)
            }
            due += area
            previous = stage.target
            stageStart += seconds
        }
        // Rounding of the sums above: the last request is at the very end.
        return stageStart
    }

    /// The first moment at or after `seconds` when the target is at least `level`, `nil` when that does not
    /// happen before the run ends: when an idle closed-loop lane is wanted again.
    package func firstTime(atLeast level: Double, from seconds: Double) -> Double? {
        let end = totalSeconds
        guard seconds < end else { return nil }
        if target(atSeconds: seconds) >= level { return seconds }
        var previous = start
        var stageStart = 0.0
        for stage in stages {
            let stageEnd = stageStart + stage.seconds
            defer {
                previous = stage.target
                stageStart = stageEnd
            }
            guard stageEnd > seconds, stage.target >= level else { continue }
            guard stage.seconds > 0, stage.target > previous else { return max(stageStart, seconds) }
            let crossing = stageStart + (level - previous) / (stage.target - previous) * stage.seconds
            return max(crossing, seconds)
        }
        return nil
    }

    /// For the report: `10s→100/s, 30s→1000/s, 10s→0/s` (`unit` `/s`), with `from 50/s, ` first when the run does
    /// not start at 0.
    package func text(unit: String) -> String {
        let stagesText = stages.map { "\(Self.durationText($0.duration))→\(Self.number($0.target))\(unit)" }
            .joined(separator: ", ")
        return start > 0 ? "from \(Self.number(start))\(unit), \(stagesText)" : stagesText
    }

    /// `100`, `2.5`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(format: "%g", value)
    }

    /// `10s`, `1m30s`, `250ms`.
    static func durationText(_ duration: Duration) -> String {
        let milliseconds = Int64((Stage.seconds(duration) * 1000).rounded())
        guard milliseconds % 1000 == 0 else { return "\(milliseconds)ms" }
        let seconds = milliseconds / 1000
        let (hours, minutes, rest) = (seconds / 3600, seconds % 3600 / 60, seconds % 60)
        var text = ""
        if hours > 0 { text += "\(hours)h" }
        if minutes > 0 { text += "\(minutes)m" }
        if rest > 0 || text.isEmpty { text += "\(rest)s" }
        return text
    }
}
