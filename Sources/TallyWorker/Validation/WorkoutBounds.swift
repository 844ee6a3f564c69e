import TallyJSONCoding
import TallyProtocol

/// The ranges every workout-area input must fall in. Far beyond any real session, and low enough that sums
/// over the largest request Tally accepts stay exact integers or finite doubles, never overflowing or NaN.
enum WorkoutBounds {
    /// Repetitions in one set.
    static let reps = 0...10_000
    /// One set's weight, in the set's own unit (kg or lb).
    static let weight = 0.0...10_000.0
    /// A plan's length in weeks (ten years).
    static let planWeeks = 1...520
    /// A stretch or meditation session's length: at most one day.
    static let durationSeconds = 0...86_400
    /// Characters in an id (workout, template, plan, stretch, meditation).
    static let idLength = 1...128
    /// Characters in a name (workout, exercise, plan, plan day).
    static let nameLength = 1...200
    /// Characters in a stretch region.
    static let regionLength = 1...100

    // Every check takes its field path as an autoclosure: paths are built only for the error that is thrown,
    // because building one per set costs more than the whole computation of a large request.

    /// Checks an integer against its range.
    static func check(_ value: Int, _ range: ClosedRange<Int>, _ path: @autoclosure () -> FieldPath) throws(TallyError)
    {
        guard !range.contains(value) else { return }
        throw .invalidParams(
            path(), value < range.lowerBound ? "must be ≥ \(range.lowerBound)" : "must be ≤ \(range.upperBound)")
    }

    /// Checks a number against its range (JSON carries no NaN or infinity, so every decoded number compares).
    static func check(
        _ value: Double, _ range: ClosedRange<Double>, _ path: @autoclosure () -> FieldPath
    )
        throws(TallyError)
    {
        guard !range.contains(value) else { return }
        let bound = value < range.lowerBound ? range.lowerBound : range.upperBound
        throw .invalidParams(path(), value < range.lowerBound ? "must be ≥ \(Int(bound))" : "must be ≤ \(Int(bound))")
    }

    /// Checks a text's length in characters.
    static func check(
        _ text: String, length range: ClosedRange<Int>, _ path: @autoclosure () -> FieldPath
    )
        throws(TallyError)
    {
        guard !fits(text, length: range) else { return }
        let count = text.count
        if count < range.lowerBound {
            throw .invalidParams(
                path(), range.lowerBound == 1 ? "must not be empty" : "needs at least \(range.lowerBound) characters")
        }
        if count > range.upperBound {
            throw .invalidParams(path(), "must have at most \(range.upperBound) characters")
        }
    }

    /// Whether a text's length in characters is in `range`.
    static func fits(_ text: String, length range: ClosedRange<Int>) -> Bool {
        // A character is at least one byte: a short text needs no grapheme count.
        let bytes = text.utf8.count
        if bytes >= range.lowerBound, bytes <= range.upperBound, range.lowerBound <= 1 { return true }
        return range.contains(text.count)
    }

    /// Whether a text read as its UTF-8 bytes (valid UTF-8) has a length in characters in `range`: as
    /// `fits(_:length:)` says of the `String` those bytes make.
    static func fits(utf8 bytes: UnsafeBufferPointer<UInt8>, length range: ClosedRange<Int>) -> Bool {
        if bytes.count >= range.lowerBound, bytes.count <= range.upperBound, range.lowerBound <= 1 { return true }
        return fits(String(decoding: bytes, as: UTF8.self), length: range)
    }

    /// Checks a list's length against the request's limit.
    static func check(
        count: Int, _ limits: RequestLimits, _ path: @autoclosure () -> FieldPath, unit: String
    ) throws(TallyError) {
        if count > limits.maxListElements { try limits.check(count, at: path(), unit: unit) }
    }

    /// Checks that no two elements of a list share an id.
    /// - Parameters:
    ///   - ids: the elements' ids, in list order.
    ///   - path: the list; the error names `path[second].id` and, as the conflict, `path[first].id`, with the id
    ///     itself as `details.value`.
    ///   - noun: what the elements are, for the message ("workout").
    static func checkUnique(_ ids: some Sequence<String>, at path: FieldPath, noun: String) throws(TallyError) {
        var seen: [String: Int] = [:]
        seen.reserveCapacity(ids.underestimatedCount)
        for (index, id) in ids.enumerated() {
            if let first = seen.updateValue(index, forKey: id) {
                throw .invalidParams(
                    path.index(index) + "id", "a second \(noun) with id '\(id)' (ids are unique)",
                    conflictsWith: path.index(first) + "id", value: id)
            }
        }
    }
}
