import TallyCore
import TallyJSONCoding
import TallyProtocol

extension StepSampleParams {
    /// Validates a list: its length and each sample's ranges, the same bounds as a whole day's record (a sample
    /// cannot exceed a day). Samples in one hour are summed: that is what a bucket is.
    static func samples(
        _ samples: [StepSampleParams], at path: FieldPath, limits: RequestLimits
    ) throws(TallyError) -> [StepSampleParams] {
        try limits.check(samples.count, at: path, unit: "samples")
        for (index, sample) in samples.enumerated() {
            try DailyRecordParams.checkMeasures(
                steps: sample.steps, distanceMeters: sample.distanceMeters, calories: sample.calories,
                flightsClimbed: sample.flightsClimbed, at: path.index(index))
        }
        return samples
    }
}
