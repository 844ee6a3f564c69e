import Logging

/// One log event as one line of JSON (RFC 8259), the shape `--log-format json` promises log pipelines:
///
/// ```json
/// {"timestamp":"2026-11-23T15:20:01.123456Z","level":"info","logger":"tally.broker","message":"broker listening","source":"Majordomo","file":"Majordomo/Broker+Loop.swift","line":34,"mdp.endpoints":"tcp://127.0.0.1:5555"}
/// ```
///
/// The keys of ``reservedKeys`` come first, in that order, always present; then the event's metadata, one key
/// each, sorted, with its values as strings, arrays and objects (a `stringConvertible` value is written as its
/// description, so a key's type never depends on how a library happened to pass it). A metadata key that
/// collides with a reserved one is written with a `metadata.` prefix instead of overwriting it or producing an
/// object with duplicate keys. Keys and values are escaped here, byte by byte: metadata carries what clients
/// sent (request ids, service names), and a quote or a newline in it must not end the object or the line.
package struct JSONLogLine: Sendable {
    /// The keys every line has, in the order they are written.
    package static let reservedKeys = ["timestamp", "level", "logger", "message", "source", "file", "line"]

    package var timestamp: String
    package var level: Logger.Level
    package var logger: String
    package var message: String
    package var source: String
    package var file: String
    package var line: UInt
    package var metadata: Logger.Metadata

    package init(
        timestamp: String, level: Logger.Level, logger: String, message: String, source: String, file: String,
        line: UInt, metadata: Logger.Metadata
    ) {
        self.timestamp = timestamp
        self.level = level
        self.logger = logger
        self.message = message
        self.source = source
        self.file = file
        self.line = line
        self.metadata = metadata
    }

    /// The line's bytes, newline included.
    package var bytes: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        output.append(UInt8(ascii: "{"))
        Self.member("timestamp", .string(timestamp), first: true, into: &output)
        Self.member("level", .string(level.rawValue), into: &output)
        Self.member("logger", .string(logger), into: &output)
        Self.member("message", .string(message), into: &output)
        Self.member("source", .string(source), into: &output)
        Self.member("file", .string(file), into: &output)
        output.append(contentsOf: #","line":"#.utf8)
        output.append(contentsOf: String(line).utf8)
        var taken = Set(Self.reservedKeys)
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            var name = key
            while taken.contains(name) { name = "metadata." + name }
            taken.insert(name)
            Self.member(name, value, into: &output)
        }
        output.append(contentsOf: "}\n".utf8)
        return output
    }

    private static func member(
        _ key: String, _ value: Logger.MetadataValue, first: Bool = false, into output: inout [UInt8]
    ) {
        if !first { output.append(UInt8(ascii: ",")) }
        string(key, into: &output)
        output.append(UInt8(ascii: ":"))
        self.value(value, into: &output)
    }

    private static func value(_ value: Logger.MetadataValue, into output: inout [UInt8]) {
        switch value {
        case .string(let text):
            string(text, into: &output)
        case .stringConvertible(let convertible):
            string(convertible.description, into: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                self.value(element, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .dictionary(let members):
            output.append(UInt8(ascii: "{"))
            for (index, (key, element)) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                member(key, element, first: index == 0, into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// A JSON string: `"` and `\` escaped, control characters (U+0000–U+001F) as their short escapes or `\u00XX`,
    /// and three invisible scalars that readers mishandle as `\uXXXX` (U+FEFF, which some strip as a byte-order mark
    /// wherever it stands, and the line and paragraph separators U+2028/U+2029, which end a line for JavaScript);
    /// everything else as its UTF-8 bytes (a Swift string is valid Unicode, so the line is valid UTF-8).
    static func string(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == 0xEF || byte == 0xE2, let escape = Self.invisibleEscape(bytes, at: index - 1) {
                output.append(contentsOf: escape.utf8)
                index += 2
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
            case 0x0A: output.append(contentsOf: #"\n"#.utf8)
            case 0x0D: output.append(contentsOf: #"\r"#.utf8)
            case 0x09: output.append(contentsOf: #"\t"#.utf8)
            case 0x08: output.append(contentsOf: #"\b"#.utf8)
            case 0x0C: output.append(contentsOf: #"\f"#.utf8)
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output.append(contentsOf: #"\u00"#.utf8)
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// The escape of the invisible scalar whose UTF-8 starts at `start` (U+FEFF: EF BB BF, U+2028/U+2029: E2 80 A8/A9).
    private static func invisibleEscape(_ bytes: [UInt8], at start: Int) -> String? {
        guard start + 2 < bytes.count else { return nil }
        switch (bytes[start], bytes[start + 1], bytes[start + 2]) {
        case (0xEF, 0xBB, 0xBF): return #"\uFEFF"#
        case (0xE2, 0x80, 0xA8): return #"\u2028"#
        case (0xE2, 0x80, 0xA9): return #"\u2029"#
        default: return nil
        }
    }
}
