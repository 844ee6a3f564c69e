import Foundation

extension TallyJSONDecoder {
    /// Decodes a `T` from a whole document held in `Data` (one copy into an array).
    @usableFromInline package func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decode(type, from: [UInt8](data))
    }
}
