import Foundation
import TallyJSONCoding
import Testing

/// Array elements that write themselves (`JSONFastEncodable`, their members in their `CodingKeys`' order) produce the
/// same bytes as their synthesized `encode(to:)` with nil members written as null.
@Suite struct FastEncodingTests {
    struct Row: Encodable, JSONFastEncodable {
        var name: String
        var count: Int?
        var ratio: Double?
        var flag: Bool
        var note: String?

        enum CodingKeys: String, CodingKey, CaseIterable { case name, count, ratio, flag, note }

        func writeMembers(to object: inout JSONObjectWriter) throws {
            object.string("name", name)
            object.int("count", count)
            try object.double("ratio", ratio)
            object.bool("flag", flag)
            object.string("note", note)
        }
    }

    /// The encoder the fast path writes for: nil members as null.
    static func encoder() -> TallyJSONEncoder {
        var encoder = TallyJSONEncoder()
        encoder.nilMembers = .null
        return encoder
    }

    /// The same value through its containers only (the wrapper is not fast-encodable).
    struct ViaContainers<Value: Encodable>: Encodable {
        var value: Value
        func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
    }

    struct Document: Encodable {
        var before: Int
        var rows: [Row]
        var nested: [[Row]]
        var after: String
    }

    struct SlowDocument: Encodable {
        var before: Int
        var rows: [ViaContainers<Row>]
        var nested: [[ViaContainers<Row>]]
        var after: String
    }

    static let rows = [
        Row(name: "plain", count: 3, ratio: 0.25, flag: true, note: nil),
        Row(name: "quote\"back\\slash\n/é😀", count: nil, ratio: nil, flag: false, note: "n"),
        Row(name: "", count: Int.min, ratio: -0.0, flag: true, note: ""),
        Row(name: "big", count: Int.max, ratio: 1e300, flag: false, note: "\u{1F}"),
    ]

    @Test func fastElementsWriteWhatTheirContainersWrite() throws {
        let fast = Document(before: 1, rows: Self.rows, nested: [[], Self.rows, [Self.rows[0]]], after: "end")
        let slow = SlowDocument(
            before: 1, rows: Self.rows.map { ViaContainers(value: $0) },
            nested: [[], Self.rows.map { ViaContainers(value: $0) }, [ViaContainers(value: Self.rows[0])]],
            after: "end")
        let fastBytes = try Self.encoder().encodeToBytes(fast)
        #expect(fastBytes == (try Self.encoder().encodeToBytes(slow)))
        #expect(try Self.encoder().encodeToBytes(Self.rows) == Self.encoder().encodeToBytes(slow.rows))
        // And where no member is nil, it is the document Foundation writes.
        let full = Document(before: 1, rows: [Self.rows[3]], nested: [[Self.rows[3]]], after: "")
        let reread = try JSONSerialization.jsonObject(with: Data(Self.encoder().encodeToBytes(full))) as? NSDictionary
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        #expect(reread == (try JSONSerialization.jsonObject(with: encoder.encode(full)) as? NSDictionary))
    }

    @Test func aNonFiniteNumberIsRefusedWithItsPath() {
        let bad = [Self.rows[0], Row(name: "nan", count: 1, ratio: .nan, flag: true, note: nil)]
        do {
            _ = try TallyJSONEncoder().encodeToBytes(bad)
            Issue.record("NaN was encoded")
        } catch let EncodingError.invalidValue(_, context) {
            #expect(context.codingPath.map(\.intValue) == [1, nil])
            #expect(context.codingPath.last?.stringValue == "ratio")
        } catch {
            Issue.record("unexpected \(error)")
        }
        let infinite = [Row(name: "inf", count: nil, ratio: .infinity, flag: true, note: nil)]
        #expect(throws: EncodingError.self) { try TallyJSONEncoder().encodeToBytes(infinite) }
    }
}
