import TallyJSONCoding
import Testing

/// `TallyJSONEncoder.nilMembers`: what a `nil` optional member of a synthesized conformance becomes.
@Suite struct NilMembersTests {
    struct Inner: Encodable { var value = 1 }

    struct Card: Encodable {
        var name = "a"
        var steps: Int?
        var ratio: Double?
        var flag: Bool?
        var note: String?
        var small: UInt8?
        var inner: Inner?
        var list: [Int?] = [nil, 2]
    }

    /// Sections whose absence means "does not apply".
    struct Sheet: Encodable {
        var status = "off"
        var section: Inner?

        enum CodingKeys: String, JSONOmittingNilMembers { case status, section }
    }

    static func text(_ value: some Encodable, _ nilMembers: TallyJSONEncoder.NilMembers) throws -> String {
        var encoder = TallyJSONEncoder()
        encoder.nilMembers = nilMembers
        return String(decoding: try encoder.encodeToBytes(value), as: UTF8.self)
    }

    @Test func nilMembersAreLeftOutByDefault() throws {
        #expect(try Self.text(Card(), .omitted) == #"{"name":"a","list":[null,2]}"#)
    }

    @Test func nilMembersOfEveryTypeCanBeNull() throws {
        #expect(
            try Self.text(Card(), .null)
                == #"{"name":"a","steps":null,"ratio":null,"flag":null,"note":null,"small":null,"inner":null,"list":[null,2]}"#
        )
        let full = Card(steps: 3, ratio: 0.5, flag: true, note: "n", small: 7, inner: Inner(), list: [])
        #expect(
            try Self.text(full, .null)
                == #"{"name":"a","steps":3,"ratio":0.5,"flag":true,"note":"n","small":7,"inner":{"value":1},"list":[]}"#
        )
    }

    @Test func keysThatOmitNilMembersKeepThemOut() throws {
        #expect(try Self.text(Sheet(), .null) == #"{"status":"off"}"#)
        #expect(try Self.text(Sheet(section: Inner()), .null) == #"{"status":"off","section":{"value":1}}"#)
    }
}
