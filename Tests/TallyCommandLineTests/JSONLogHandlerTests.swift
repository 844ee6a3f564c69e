import Foundation
import Logging
import Synchronization
import TallyCommandLine
import Testing

/// `--log-format json` in process: every line one JSON object with the documented keys, whatever the metadata holds.
@Suite struct JSONLogHandlerTests {
    /// Lines a handler wrote.
    final class CapturedLines: Sendable {
        private let lines = Mutex<[[UInt8]]>([])

        func append(_ line: [UInt8]) { lines.withLock { $0.append(line) } }

        var all: [[UInt8]] { lines.withLock { $0 } }
    }

    func logger(
        _ captured: CapturedLines, level: Logger.Level = .trace, provider: Logger.MetadataProvider? = nil
    ) -> Logger {
        Logger(label: "tally.test") { label in
            var handler = JSONLogHandler(label: label, metadataProvider: provider, output: captured.append)
            handler.logLevel = level
            return handler
        }
    }

    /// Parses one captured line, which must end with its only newline.
    func object(_ line: [UInt8]) throws -> [String: Any] {
        #expect(line.last == UInt8(ascii: "\n"))
        #expect(line.dropLast().contains(UInt8(ascii: "\n")) == false, "one event, one line")
        return try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
    }

    @Test func hostileMetadataStaysInsideItsStringAndOnItsLine() throws {
        let captured = CapturedLines()
        let hostile = "q\"uote\\back\nnew line\r\ttab \u{0}nul \u{1B}[31m ✓ 🏃‍♀️ \u{2028} \u{7F} \"},\"level\":\"fake"
        logger(captured).warning(
            "message with \"quotes\"\nand a second line ✓",
            metadata: [
                "tally.request.id": "\(hostile)",
                "mdp.service": .stringConvertible(hostile),
                "list": [.string(hostile), ["nested": "x\"y"]],
                "object": ["inner": .string(hostile), "count": "3"],
                "clé ✓\n\"": "key needs escaping too",
            ])
        let lines = captured.all
        #expect(lines.count == 1)
        let object = try object(try #require(lines.first))
        #expect(object["message"] as? String == "message with \"quotes\"\nand a second line ✓")
        #expect(object["level"] as? String == "warning")
        #expect(object["logger"] as? String == "tally.test")
        #expect(object["tally.request.id"] as? String == hostile)
        #expect(object["mdp.service"] as? String == hostile)
        let list = try #require(object["list"] as? [Any])
        #expect(list.first as? String == hostile)
        #expect((list.last as? [String: String])?["nested"] == "x\"y")
        #expect((object["object"] as? [String: String]) == ["inner": hostile, "count": "3"])
        #expect(object["clé ✓\n\""] as? String == "key needs escaping too")
    }

    @Test func reservedKeysComeFirstInTheirOrderAndAlwaysHaveTheirTypes() throws {
        let captured = CapturedLines()
        logger(captured).info("hello", metadata: ["a.first": "1", "z.last": "2"])
        let line = try #require(captured.all.first)
        let object = try object(line)
        let text = String(decoding: line, as: UTF8.self)
        let positions = (JSONLogLine.reservedKeys + ["a.first", "z.last"]).map { key in
            text.range(of: "\"\(key)\":").map { text.distance(from: text.startIndex, to: $0.lowerBound) } ?? -1
        }
        #expect(!positions.contains(-1) && positions == positions.sorted(), "\(text)")
        #expect(text.hasPrefix(#"{"timestamp":""#))
        #expect(object["source"] as? String == "TallyCommandLineTests")
        #expect((object["file"] as? String)?.hasSuffix("JSONLogHandlerTests.swift") == true)
        #expect(object["line"] is Int)
        #expect(Set(object.keys) == Set(JSONLogLine.reservedKeys + ["a.first", "z.last"]))
    }

    @Test func metadataNamedLikeAReservedKeyIsRenamedNotOverwritten() throws {
        let captured = CapturedLines()
        logger(captured).info(
            "the real message",
            metadata: ["message": "from metadata", "level": "from metadata", "metadata.message": "already prefixed"])
        let object = try object(try #require(captured.all.first))
        #expect(object["message"] as? String == "the real message")
        #expect(object["level"] as? String == "info")
        #expect(object["metadata.level"] as? String == "from metadata")
        // Sorted, "message" is renamed first; the key that already had the prefix then needs one more.
        #expect(object["metadata.message"] as? String == "from metadata")
        #expect(object["metadata.metadata.message"] as? String == "already prefixed", "neither lost: \(object)")
    }

    @Test func metadataMergesLikeTheTextFormat() throws {
        struct Failure: Error, CustomStringConvertible { var description: String { "it \"broke\"" } }
        let captured = CapturedLines()
        let provider = Logger.MetadataProvider { ["from.provider": "p", "shared": "provider"] }
        var logger = logger(captured, provider: provider)
        logger[metadataKey: "from.handler"] = "h"
        logger[metadataKey: "shared"] = "handler"
        logger.error("failed", error: Failure(), metadata: ["explicit": "e"])
        logger.info("plain")
        let lines = try captured.all.map(object)
        #expect(lines[0]["from.handler"] as? String == "h")
        #expect(lines[0]["from.provider"] as? String == "p")
        #expect(lines[0]["explicit"] as? String == "e")
        #expect(lines[0]["shared"] as? String == "provider", "the provider's value wins over the handler's")
        #expect(lines[0]["error.message"] as? String == "it \"broke\"")
        #expect((lines[0]["error.type"] as? String)?.hasSuffix("Failure") == true)
        #expect(lines[1]["explicit"] == nil && lines[1]["shared"] as? String == "provider")
    }

    @Test func levelsBelowTheHandlersAreNotWritten() {
        let captured = CapturedLines()
        let logger = logger(captured, level: .notice)
        logger.debug("no")
        logger.info("no")
        logger.notice("yes")
        logger.critical("yes")
        #expect(captured.all.count == 2)
    }

    @Test func invisibleScalarsAreEscaped() throws {
        let text = "a\u{FEFF}b\u{2028}c\u{2029}d"
        let line = JSONLogLine(
            timestamp: "t", level: .info, logger: "l", message: text, source: "s", file: "f", line: 1, metadata: [:])
        #expect(String(decoding: line.bytes, as: UTF8.self).contains(#""message":"a\uFEFFb\u2028c\u2029d""#))
        #expect(try object(line.bytes)["message"] as? String == text)
    }

    @Test func randomTextRoundTripsThroughAJSONParser() throws {
        var generator = SystemRandomNumberGenerator()
        // Scalars from every range that needs care: controls, quote and backslash, DEL, Latin-1, the line and
        // paragraph separators, the BMP's end, astral planes; surrogates are not scalars.
        let ranges: [ClosedRange<UInt32>] = [
            0...0x1F, 0x20...0x7F, 0x80...0x7FF, 0x2028...0x2029, 0xE000...0xFFFF, 0x1_0000...0x10_FFFF,
        ]
        for _ in 0..<500 {
            let scalars = (0..<Int.random(in: 0...40, using: &generator)).compactMap { _ in
                Unicode.Scalar(UInt32.random(in: ranges.randomElement(using: &generator)!, using: &generator))
            }
            let text = String(String.UnicodeScalarView(scalars))
            var line = JSONLogLine(
                timestamp: "t", level: .info, logger: text, message: text, source: "s", file: "f", line: 1,
                metadata: [text: .string(text)])
            line.metadata["nested"] = [.string(text), [text: .string(text)]]
            let object = try self.object(line.bytes)
            #expect(object["message"] as? String == text)
            #expect(object["logger"] as? String == text)
            let metadataValue = JSONLogLine.reservedKeys.contains(text) ? object["metadata." + text] : object[text]
            #expect(metadataValue as? String == text)
        }
    }
}

@Suite struct LogTimestampTests {
    @Test func rfc3339InUTCWithMicroseconds() {
        #expect(LogTimestamp.format(seconds: 0, nanoseconds: 0) == "1970-01-01T00:00:00.000000Z")
        #expect(LogTimestamp.format(seconds: 951_782_400, nanoseconds: 999_999_999) == "2000-02-29T00:00:00.999999Z")
        #expect(LogTimestamp.format(seconds: 1_795_444_801, nanoseconds: 1_000) == "2026-11-23T14:40:01.000001Z")
    }

    @Test func nowIsNowAndParses() throws {
        let text = LogTimestamp.now()
        #expect(text.count == 27 && text.hasSuffix("Z"), "\(text)")
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let date = try #require(parser.date(from: text))
        #expect(abs(date.timeIntervalSinceNow) < 5)
    }
}
