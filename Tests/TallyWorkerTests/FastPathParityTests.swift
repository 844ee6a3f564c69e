import Foundation
import TallyCore
import TallyJSONCoding
import TallyProtocol
import Testing

/// The fast paths of workouts, exercises, sets, plans, sessions and daily records (`JSONFastDecodable`, members
/// matched through each type's `CodingKeys`) against the standard `init(from:)` path, which Foundation's decoder
/// always takes: the same values for plain elements with every optional member present or absent, and the same
/// values where the fast path must step aside (escapes, reordered or repeated members).
@Suite struct FastPathParityTests {
    /// Decodes `text` with both decoders and requires equal values.
    static func expectParity<T: Decodable & Equatable>(_ type: T.Type, _ text: String) throws {
        let tally = try TallyJSONDecoder().decode(T.self, from: Array(text.utf8))
        let foundation = try JSONDecoder().decode(T.self, from: Data(text.utf8))
        #expect(tally == foundation, "\(text)")
    }

    static let plan = #"{"id":"ppl","name":"PPL 8 weeks","start_date":"2026-03-01","weeks":8}"#
    static let sets = #"[{"reps":8,"weight":62.5,"unit":"kg"},{"reps":5,"weight":135,"unit":"lb"}]"#

    @Test(arguments: [
        // Every member, an offset of a quarter hour and a fraction.
        #"{"id":"w1","name":"Push","completed_at":"2026-03-08T19:45:00.125+05:45","template_id":"t-push","#
            + #""day_name":"Push day","plan":\#(plan),"exercises":[{"name":"Bench press","sets":\#(sets)}]}"#,
        // Only the required members; then the optional ones null.
        #"{"id":"w2","name":"Pull","completed_at":"2026-03-08T07:00:00Z","exercises":[]}"#,
        #"{"id":"w3","name":"Pull","completed_at":"2026-03-08T07:00:00Z","template_id":null,"day_name":null,"#
            + #""plan":null,"exercises":[{"name":"Deadlift","sets":[]}]}"#,
        // A plan without id and name; a leap second; a negative offset.
        #"{"id":"w4","name":"Legs","completed_at":"2016-12-31T23:59:60-03:30","#
            + #""plan":{"start_date":"2016-11-01","weeks":12},"exercises":[]}"#,
        // Names past the small-string size, non-ASCII, and escaped.
        #"{"id":"w5","name":"Überkopfdrücken mit Kurzhantel 🏋️","completed_at":"2026-03-08T07:00:00Z","#
            + #""exercises":[{"name":"Incline dumbbell press, slow \"tempo\"\n","sets":\#(sets)}]}"#,
        // Escapes where the fast path reads bytes: the timestamp, the date, the unit; and an escaped key.
        #"{"id":"w6","name":"Push","completed_at":"2026-03-08T07:00:00\u002B01:00","#
            + #""plan":{"start_date":"2026\u002D03-01","weeks":8},"#
            + #""exercises":[{"name":"Dips","sets":[{"re\u0070s":10,"weight":0,"unit":"k\u0067"}]}]}"#,
        // Members in another order, numbers in other spellings, a repeated member (the first one counts).
        #"{"exercises":[{"sets":[{"unit":"lb","weight":1.35e2,"reps":5},{"weight":-0.0,"reps":3,"unit":"kg"}],"#
            + #""name":"Squat"}],"completed_at":"2026-03-08T07:00:00Z","name":"Legs","id":"w7"}"#,
        #"{"id":"w8","name":"Legs","completed_at":"2026-03-08T07:00:00Z","#
            + #""exercises":[{"name":"Squat","sets":[{"reps":5,"weight":100.25,"unit":"kg","reps":6}]}],"id":"x"}"#,
    ])
    func workoutsDecodeAlikeOnBothPaths(_ workout: String) throws {
        try Self.expectParity([WorkoutParams].self, "[\(workout),\(workout)]")
    }

    @Test(arguments: [
        #"{"date":"2026-03-08","steps":9500,"distance_m":7100.5,"calories_kcal":380,"flights_climbed":4}"#,
        #"{"date":"2026-03-08","steps":0}"#,
        #"{"date":"2026-03-08","steps":1,"distance_m":null,"calories_kcal":1e3,"flights_climbed":null}"#,
        #"{"steps":12,"date":"2026\u002d03-08","distance_m":0.000001,"calories_kcal":-0}"#,
        #"{"date":"2024-02-29","steps":123456789012,"distance_m":123456789.123456,"calories_kcal":0.1}"#,
    ])
    func dailyRecordsDecodeAlikeOnBothPaths(_ record: String) throws {
        try Self.expectParity([DailyRecordParams].self, "[\(record),\(record)]")
    }

    @Test(arguments: [
        #"{"id":"s1","completed_at":"2026-03-08T07:00:00+01:00","regions":["hamstrings","hips"],"duration_seconds":600}"#,
        #"{"duration_seconds":0,"regions":[],"completed_at":"2026-03-08T07:00:00Z","id":"s2","extra":[1,{"a":2}]}"#,
        #"{"id":"s3","completed_at":"2026-03-08T07:00:00Z","regions":["h\u00fcfte","Schultern 🙆"],"duration_seconds":1e2}"#,
        #"{"id":"s4","completed_at":"2026-03-08T07:00:00Z","regions":["hips"],"duration_seconds":60,"id":"s5"}"#,
    ])
    func stretchesDecodeAlikeOnBothPaths(_ stretch: String) throws {
        try Self.expectParity([StretchParams].self, "[\(stretch),\(stretch)]")
    }

    @Test(arguments: [
        #"{"id":"m1","completed_at":"2026-03-08T21:30:00-07:00","duration_seconds":900}"#,
        #"{"duration_seconds":5,"completed_at":"2026-03-08T07:00:00\u002B01:00","id":"m\u0032"}"#,
    ])
    func meditationsDecodeAlikeOnBothPaths(_ meditation: String) throws {
        try Self.expectParity([MeditationParams].self, "[\(meditation),\(meditation)]")
    }

    /// A stretch whose regions are not all strings is not plain: the standard path reports it at the region.
    @Test func aRegionThatIsNotAStringFailsAsBefore() {
        let text = #"[{"id":"s1","completed_at":"2026-03-08T07:00:00Z","regions":["hips",7],"duration_seconds":60}]"#
        #expect {
            try TallyJSONDecoder().decode([StretchParams].self, from: Array(text.utf8))
        } throws: { error in
            let error = error as? JSONDecodingError
            return error?.path.description == "[0].regions[1]"
                && error?.problem == .wrongType(expected: .string, found: .number)
        }
    }

    /// Values that the fast path reads from bytes but refuses: the standard path reports them, at the same place.
    @Test(arguments: [
        #"[{"reps":1,"weight":1,"unit":"kgs"}]"#,
        #"[{"reps":1,"weight":1,"unit":"k\u0067s"}]"#,
    ])
    func refusedUnitsFailAsBefore(_ text: String) {
        #expect {
            try TallyJSONDecoder().decode([SetParams].self, from: Array(text.utf8))
        } throws: { error in
            let error = error as? JSONDecodingError
            return error?.path.description == "[0].unit"
                && error?.problem == .invalid(#"'kgs' is not a unit: expected "kg" or "lb""#)
        }
    }
}
