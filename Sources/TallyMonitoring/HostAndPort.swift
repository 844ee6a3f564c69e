import Foundation

/// `HOST:PORT` as an operator writes a listening address: an IPv4 address (`0.0.0.0:9100`), a host name
/// (`localhost:9100`, `metrics.internal:9100`) or an IPv6 address in brackets (`[::1]:9100`, `[::]:9100`), as in
/// URLs (RFC 3986) and Prometheus targets.
///
/// Only the syntax is checked here, at start, so that a typo stops the process with a message instead of a
/// resolver error later; whether a name resolves, and whether the port is free, is learned when the server
/// binds. It is the address ``MonitoringServer`` listens on (``MonitoringServer/Address``).
package struct HostAndPort: Sendable, Hashable, CustomStringConvertible {
    /// The host without brackets: `127.0.0.1`, `localhost`, `::1`.
    package let host: String
    /// 0: any free one.
    package let port: UInt16

    package init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT`.
    /// - Throws: a ``SyntaxError`` saying what is wrong.
    package init(parsing text: String) throws(SyntaxError) {
        let hostText: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw SyntaxError("the '[' of an IPv6 address is not closed")
            }
            hostText = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else {
                throw SyntaxError("a port must follow the IPv6 address: [\(hostText)]:PORT")
            }
            portText = rest.dropFirst()
            guard Self.isIPv6(hostText) else { throw SyntaxError("'\(hostText)' is not an IPv6 address") }
        } else {
            guard let colon = text.lastIndex(of: ":") else { throw SyntaxError("no port") }
            hostText = text[..<colon]
            portText = text[text.index(after: colon)...]
            if hostText.contains(":") {
                throw SyntaxError("write an IPv6 address in brackets, e.g. [\(hostText)]:\(portText)")
            }
            if hostText.isEmpty { throw SyntaxError("no host: write 0.0.0.0:PORT or [::]:PORT for every interface") }
            if hostText.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) {
                guard Self.isIPv4(hostText) else { throw SyntaxError("'\(hostText)' is not an IPv4 address") }
            } else {
                guard Self.isHostName(hostText) else { throw SyntaxError("'\(hostText)' is not a host name") }
            }
        }
        guard !portText.isEmpty, portText.allSatisfy({ $0.isASCII && $0.isNumber }), let port = UInt16(portText)
        else { throw SyntaxError("the port must be 0...65535 (got '\(portText)')") }
        self.host = String(hostText)
        self.port = port
    }

    /// `host:port`, with the host in brackets when it is an IPv6 address (`[::1]:9100`), as in a URL.
    package var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// What is wrong with a `HOST:PORT`.
    package struct SyntaxError: Error, Hashable, CustomStringConvertible {
        package let description: String

        init(_ description: String) { self.description = description }
    }

    static func isIPv4(_ text: Substring) -> Bool {
        var address = in_addr()
        return inet_pton(AF_INET, String(text), &address) == 1
    }

    /// An IPv6 address, optionally with a zone (`fe80::1%eth0`), which the resolver understands.
    static func isIPv6(_ text: Substring) -> Bool {
        let parts = text.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 2 {
            guard !parts[1].isEmpty,
                parts[1].allSatisfy({
                    $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_")
                })
            else { return false }
        }
        var address = in6_addr()
        return inet_pton(AF_INET6, String(parts[0]), &address) == 1
    }

    /// RFC 1123: dot-separated labels of letters, digits and hyphens, 1...63 bytes each, not starting or ending
    /// with a hyphen, at most 253 bytes in all; a final dot (fully qualified) is allowed.
    static func isHostName(_ text: Substring) -> Bool {
        let name = text.hasSuffix(".") ? text.dropLast() : text
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            (1...63).contains(label.utf8.count) && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }
}
