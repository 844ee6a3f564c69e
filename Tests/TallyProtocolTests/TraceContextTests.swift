import Foundation
import TallyProtocol
import Testing

/// The envelope's `trace` by W3C Trace Context Level 1: the cases of the spec's own test suite (w3c/trace-context,
/// test/test.py) for `traceparent` and `tracestate`, read by `TraceParent` and `TraceContext.validated()`.
@Suite struct TraceContextTests {
    static let traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
    static let parentID = "00f067aa0ba902b7"

    @Test(arguments: [
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", UInt8(0), UInt8(0x01)),
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00", 0, 0x00),
        // Unknown flag bits are kept; only bit 0 means sampled.
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-09", 0, 0x09),
        // A higher version: the same 55 characters, then the end or a dash and whatever that version adds.
        ("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", 0xcc, 0x01),
        ("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-what-the-future-will-be-like", 0xcc, 0x01),
        ("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-", 0x01, 0x00),
    ])
    func readsValidTraceparents(text: String, version: UInt8, flags: UInt8) throws {
        let parent = try TraceParent(validating: text)
        #expect(parent.version == version)
        #expect(parent.traceID == Self.traceID)
        #expect(parent.parentID == Self.parentID)
        #expect(parent.flags == flags)
        #expect(parent.isSampled == (flags & 1 == 1))
        // Passed on as version 00 writes it.
        #expect(parent.description == "00-\(Self.traceID)-\(Self.parentID)-\(TraceContextTests.hex(flags))")
    }

    static func hex(_ byte: UInt8) -> String { String(format: "%02x", byte) }

    @Test(arguments: [
        ("", "not 0 characters"),
        ("garbage", "not 7 characters"),
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7", "not 52 characters"),
        ("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "version ff is invalid"),
        ("0x-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "2-digit lowercase hex version"),
        ("AA-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "2-digit lowercase hex version"),
        ("00-00000000000000000000000000000000-00f067aa0ba902b7-01", "trace-id must not be all zeros"),
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", "parent-id must not be all zeros"),
        ("00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", "trace-id must be 32 lowercase hex digits"),
        ("00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01", "trace-id must be 32 lowercase hex digits"),
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-00F067AA0BA902B7-01", "parent-id must be 16 lowercase hex digits"),
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0g", "trace-flags must be 2 lowercase hex digits"),
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1", "not 54 characters"),
        // Ids one digit short or long put the dashes elsewhere.
        ("00-4bf92f3577b34da6a3ce929d0e0e473-600f067aa0ba902b7-01", "dashes after 2, 32 and 16 hex digits"),
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b-701", "dashes after 2, 32 and 16 hex digits"),
        ("00_4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7_01", "dashes after 2, 32 and 16 hex digits"),
        // Version 00 has nothing after the flags; a higher version has a dash there or nothing.
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-", "version 00 has 55 characters, not 56"),
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-what", "version 00 has 55 characters, not 60"),
        ("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01.what", "followed by the end or a dash"),
        (" 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "2-digit lowercase hex version"),
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01 ", "version 00 has 55 characters, not 56"),
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-\u{E9}", "trace-flags must be 2 lowercase hex"),
    ])
    func refusesInvalidTraceparents(text: String, problem: String) {
        #expect(throws: TraceContextError.self) { try TraceParent(validating: text) }
        do {
            _ = try TraceParent(validating: text)
        } catch {
            #expect(error.member == "traceparent")
            #expect(error.problem.contains(problem), "\(error.problem)")
        }
    }

    @Test(arguments: [
        "foo=1", "foo=1,bar=2", "foo=1 , bar=2", "foo=1,\tbar=2", "foo=1,,bar=2", "", " ", ",",
        "tenant@system=x", "1tenant@sys-tem=x", "a_-*/z=v a l u e", "foo=!\"#$%&'()*+-./:;<>?@[\\]^_`{|}~",
        (1...32).map { "k\($0)=v" }.joined(separator: ","),
        "k=" + String(repeating: "v", count: 256),
    ])
    func acceptsValidTracestates(state: String) throws {
        let context = TraceContext(
            traceparent: "00-\(Self.traceID)-\(Self.parentID)-01", tracestate: state)
        #expect(try context.validated().traceID == Self.traceID)
    }

    @Test(arguments: [
        ("foo", "must be key=value"),
        ("foo=", "invalid value"),
        ("foo=1,bar", "list-member 2 must be key=value"),
        ("Foo=1", "invalid key"),
        ("=1", "invalid key"),
        ("1foo=1", "invalid key"),
        ("foo.bar=1", "invalid key"),
        ("tenant@1system=1", "invalid key"),
        ("tenant@systemlongerthan14=1", "invalid key"),
        ("foo=1=2", "invalid value"),
        ("foo=caf\u{E9}", "invalid value"),
        ("foo=1,foo=2", "the key 'foo' appears more than once"),
        ((1...33).map { "k\($0)=v" }.joined(separator: ","), "more than 32 list-members"),
        ("k=" + String(repeating: "v", count: 257), "invalid value"),
        ("k=" + String(repeating: "v", count: 511), "has 513 characters; at most 512"),
    ])
    func refusesInvalidTracestates(state: String, problem: String) {
        let context = TraceContext(traceparent: "00-\(Self.traceID)-\(Self.parentID)-01", tracestate: state)
        do {
            try context.validated()
            Issue.record("'\(state)' was accepted")
        } catch {
            #expect(error.member == "tracestate")
            #expect(error.problem.contains(problem), "\(error.problem)")
        }
    }

    @Test func makesATraceparentFromIDs() throws {
        let parent = try TraceParent(traceID: Self.traceID, parentID: Self.parentID, flags: 0x01)
        #expect(parent.description == "00-\(Self.traceID)-\(Self.parentID)-01")
        #expect(throws: TraceContextError.self) { try TraceParent(traceID: "abc", parentID: Self.parentID) }
    }
}
