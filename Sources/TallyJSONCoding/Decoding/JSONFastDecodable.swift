/// A type that can also read itself straight off a JSON object, without Codable's containers, for the one plain
/// shape it expects. Worth it only for types that arrive by the thousand (a daily record): per element it saves
/// the container box, generic metadata lookups and several levels of dynamic dispatch.
///
/// The fast path never produces errors. It returns `nil` whenever anything is not plain (a missing or null
/// required member, a wrong type, a number the type cannot hold, text the type refuses); the decoder then runs
/// `init(from:)` on the same element, which throws exactly the error it always threw. So a conformance must only
/// agree with `init(from:)` on the values it accepts. It matches members against its own `CodingKeys` (a
/// `JSONKeySet`) in an exhaustive `switch`, so that its member names are the ones `init(from:)` reads.
///
/// The reader is `borrowing`: an initializer takes its arguments owned by default, which cost a retain and a
/// release of the document per element (a tenth of the fast path's time on twelve thousand sets).
@usableFromInline package protocol JSONFastDecodable: Decodable {
    init?(fastFrom object: borrowing JSONObjectReader)
}
