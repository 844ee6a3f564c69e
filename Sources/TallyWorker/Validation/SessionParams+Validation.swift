import TallyJSONCoding
import TallyProtocol

/// A timed session of the activity calendar as the request sends it (a stretch, a meditation): checked one by one,
/// and listed with unique ids.
package protocol ActivitySessionParams {
    /// One session and many, in messages: "stretch", "stretches".
    static var noun: (one: String, many: String) { get }
    var id: String { get }
    /// Checks every field.
    func check(at path: @autoclosure () -> FieldPath, limits: RequestLimits) throws(TallyError)
}

extension ActivitySessionParams {
    /// Validates a whole list: the list limit, every session, and no two sessions with one id.
    package static func check(_ list: [Self], at path: FieldPath, limits: RequestLimits) throws(TallyError) {
        try limits.check(list.count, at: path, unit: noun.many)
        for index in list.indices {
            try list[index].check(at: path.index(index), limits: limits)
        }
        // A closure, not `\.id`: a key path through a protocol requirement is projected at run time, per element.
        try WorkoutBounds.checkUnique(list.indices.lazy.map { list[$0].id }, at: path, noun: noun.one)
    }
}

extension StretchParams: ActivitySessionParams {
    package static let noun = (one: "stretch", many: "stretches")

    package func check(at path: @autoclosure () -> FieldPath, limits: RequestLimits) throws(TallyError) {
        try WorkoutBounds.check(id, length: WorkoutBounds.idLength, path() + "id")
        try WorkoutBounds.check(count: regions.count, limits, path() + "regions", unit: "regions")
        for (index, region) in regions.enumerated() {
            try WorkoutBounds.check(region, length: WorkoutBounds.regionLength, (path() + "regions").index(index))
        }
        try WorkoutBounds.check(durationSeconds, WorkoutBounds.durationSeconds, path() + "duration_seconds")
    }
}

extension MeditationParams: ActivitySessionParams {
    package static let noun = (one: "meditation", many: "meditations")

    package func check(at path: @autoclosure () -> FieldPath, limits: RequestLimits) throws(TallyError) {
        try WorkoutBounds.check(id, length: WorkoutBounds.idLength, path() + "id")
        try WorkoutBounds.check(durationSeconds, WorkoutBounds.durationSeconds, path() + "duration_seconds")
    }
}
