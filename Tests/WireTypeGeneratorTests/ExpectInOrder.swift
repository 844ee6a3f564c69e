import Foundation
import Testing

/// Expects each of `pieces` in `text`, each after the one before it: generated code that keeps the order its schema
/// (or its declaration) gives. `order` names that order in a failure.
func expectInOrder(
    _ pieces: [String], in text: String, _ order: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    var last = text.startIndex
    for piece in pieces {
        let found = try #require(text.range(of: piece), "\(piece)", sourceLocation: sourceLocation)
        #expect(found.lowerBound > last, "\(order): \(piece)", sourceLocation: sourceLocation)
        last = found.lowerBound
    }
}
