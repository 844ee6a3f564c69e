// Foundation's JSONDecoder reports a number that does not fit the requested type (1.5 or 1e300 for an Int,
// 1e999 for a Double) as "The given data was not valid JSON" with an empty coding path, through an error type
// that only becomes a DecodingError at the top of the document (TallyJSONDecoder does the same). A client deserves
// to know which field is wrong, so every keyed Int and Double decode in this module (synthesized conformances
// included: these overloads are more specific than the generic ones and shadow them here) catches that case and
// names the field.
//
// A required number that is missing stays the decoder's `keyNotFound`, which reads "is required": a client must
// learn that the member is missing, not that it was null (only an explicit null reads "…, not null").
//
// Internal on purpose: other modules keep the standard behaviour.

extension KeyedDecodingContainer {
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try Self.diagnosingNumber(key, in: self, expected: "an integer") {
            try Self.standardDecode(Int.self, forKey: key, in: self)
        }
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try Self.diagnosingNumber(key, in: self, expected: "an integer") {
            try Self.standardDecodeIfPresent(Int.self, forKey: key, in: self)
        }
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try Self.diagnosingNumber(key, in: self, expected: "a number") {
            try Self.standardDecode(Double.self, forKey: key, in: self)
        }
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try Self.diagnosingNumber(key, in: self, expected: "a number") {
            try Self.standardDecodeIfPresent(Double.self, forKey: key, in: self)
        }
    }

    // The container's own `decode` and `decodeIfPresent` (absent and null are both `nil`, in one lookup), which
    // the overloads above shadow in this module: a generic context sees only the protocol requirements.

    private static func standardDecode<Container: KeyedDecodingContainerProtocol>(
        _ type: Int.Type, forKey key: Container.Key, in container: Container
    ) throws -> Int { try container.decode(Int.self, forKey: key) }

    private static func standardDecode<Container: KeyedDecodingContainerProtocol>(
        _ type: Double.Type, forKey key: Container.Key, in container: Container
    ) throws -> Double { try container.decode(Double.self, forKey: key) }

    private static func standardDecodeIfPresent<Container: KeyedDecodingContainerProtocol>(
        _ type: Int.Type, forKey key: Container.Key, in container: Container
    ) throws -> Int? { try container.decodeIfPresent(Int.self, forKey: key) }

    private static func standardDecodeIfPresent<Container: KeyedDecodingContainerProtocol>(
        _ type: Double.Type, forKey key: Container.Key, in container: Container
    ) throws -> Double? { try container.decodeIfPresent(Double.self, forKey: key) }

    private static func diagnosingNumber<T>(
        _ key: Key, in container: Self, expected: String, _ decode: () throws -> T
    ) throws -> T {
        do {
            return try decode()
        } catch let error as DecodingError {
            throw error
        } catch {
            // A JSON number that the type cannot represent: a fraction for an integer, or out of range.
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "must be \(expected) within range (integers: whole numbers of at most 18 digits)")
        }
    }
}
