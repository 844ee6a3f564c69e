import TallyJSONCoding

/// One set on the wire: `{"reps": 8, "weight": 60, "unit": "kg"}`; weight 0 is a bodyweight set.
public struct SetParams: Codable, Sendable, Hashable {
    public var reps: Int
    public var weight: Double
    public var unit: WeightUnit

    public init(reps: Int, weight: Double, unit: WeightUnit) {
        self.reps = reps
        self.weight = weight
        self.unit = unit
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case reps, weight, unit
    }
}

extension SetParams: JSONFastDecodable {
    static let fastKeys = JSONKeySet<CodingKeys>()

    /// The plain set read without Codable's containers (two years of training are ~12,000 sets); anything else is
    /// `nil`, and the synthesized `init(from:)` decodes it with its usual errors.
    @inline(__always)
    public init?(fastFrom object: borrowing JSONObjectReader) {
        let keys = Self.fastKeys
        var reps: Int?
        var weight: Double?
        var unit: WeightUnit?
        for member in object.members {
            switch member.key(in: keys) {
            case .reps: reps = member.int
            case .weight: weight = member.double
            case .unit: unit = member.utf8(WeightUnit.init(utf8Symbol:))
            case nil: continue
            }
        }
        guard let reps, let weight, let unit else { return nil }
        self.init(reps: reps, weight: weight, unit: unit)
    }
}

/// One exercise on the wire: `{"name": "Bench Press", "sets": [...]}`.
public struct ExerciseParams: Codable, Sendable, Hashable {
    public var name: String
    public var sets: [SetParams]

    public init(name: String, sets: [SetParams]) {
        self.name = name
        self.sets = sets
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, sets
    }
}

extension ExerciseParams: JSONFastDecodable {
    static let fastKeys = JSONKeySet<CodingKeys>()

    /// The plain exercise (a name and plain sets) read without Codable's containers; anything else is `nil`, and
    /// the synthesized `init(from:)` decodes it with its usual errors.
    @inline(__always)
    public init?(fastFrom object: borrowing JSONObjectReader) {
        let keys = Self.fastKeys
        var name: String?
        var sets: [SetParams]?
        for member in object.members {
            switch member.key(in: keys) {
            case .name: name = member.string
            case .sets: sets = member.array(of: SetParams.self)
            case nil: continue
            }
        }
        guard let name, let sets else { return nil }
        self.init(name: name, sets: sets)
    }
}
