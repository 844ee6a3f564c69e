import Foundation

extension TallyJSONEncoder {
    /// The JSON of `value` as `Data`, like `JSONEncoder.encode(_:)`.
    @usableFromInline package func encode<T: Encodable>(_ value: T) throws -> Data {
        Data(try encodeToBytes(value))
    }
}
