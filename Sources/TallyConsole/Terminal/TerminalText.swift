/// Text from peers made safe to print on a terminal.
///
/// Service names, worker names and the other strings of the console's document come from peers, and a terminal
/// obeys control sequences: an ESC in a service name could move the cursor, recolour or retitle the window, or
/// rewrite what `tally top` showed above it. Every control character (C0, DEL, C1, where ESC and CSI live) and the
/// invisible bidirectional overrides (which can make text read backwards) is shown as an escape instead
/// (`\x1B`, `\u{202E}`); everything else passes as it is.
package enum TerminalText {
    package static func sanitized(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00...0x1F, 0x7F...0x9F:
                result += "\\x" + hex(scalar.value, digits: 2)
            case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                result += "\\u{" + hex(scalar.value, digits: 4) + "}"
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `text` sanitized and cut to `width` characters, the last one an ellipsis when cut.
    package static func cell(_ text: String, width: Int) -> String {
        let clean = sanitized(text)
        guard clean.count > width else { return clean }
        return width <= 0 ? "" : String(clean.prefix(width - 1)) + "…"
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
