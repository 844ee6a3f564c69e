import TallyJSONCoding

extension JSONValue {
    /// Differences between `self` (actual) and `expected`, for comparing responses with the Protocol/ examples:
    /// the string "$any" in `expected` matches any value, numbers match within a relative 1e-9, and members are
    /// compared by name, in any order.
    package func differences(from expected: JSONValue, at path: String = "$") -> [String] {
        switch (self, expected) {
        case (_, .string("$any")):
            return []
        case (.number(let actual), .number(let wanted)):
            return abs(actual - wanted) <= 1e-9 * max(1, abs(wanted)) ? [] : ["\(path): \(actual) != \(wanted)"]
        case (.array(let actual), .array(let wanted)):
            guard actual.count == wanted.count else {
                return ["\(path): \(actual.count) elements, expected \(wanted.count)"]
            }
            return zip(actual, wanted).enumerated().flatMap { $1.0.differences(from: $1.1, at: "\(path)[\($0)]") }
        case (.object(let actual), .object(let wanted)):
            let keys = Set(actual.keys).union(wanted.keys).sorted()
            return keys.flatMap { key -> [String] in
                switch (actual[key], wanted[key]) {
                case (let a?, let w?): a.differences(from: w, at: "\(path).\(key)")
                case (nil, _?): ["\(path).\(key): missing"]
                case (_?, nil): ["\(path).\(key): unexpected"]
                case (nil, nil): []
                }
            }
        default:
            return self == expected ? [] : ["\(path): \(self) != \(expected)"]
        }
    }
}
