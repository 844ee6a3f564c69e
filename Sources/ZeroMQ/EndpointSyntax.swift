/// Checks the text of a ZeroMQ endpoint before libzmq sees it, so that a typo stops a process at start with a
/// message saying what is wrong, instead of a reconnect loop logging `Invalid argument`.
///
/// Accepted: `tcp://HOST:PORT` (an IPv4 address, a `[IPv6]` address, a host or interface name; `*` as host and
/// `*` or `0` as port only where binding), `ipc://PATH` and `inproc://NAME`. libzmq still has the last word (it
/// resolves names, binds and connects); this catches what can never work.
package enum EndpointSyntax {
    /// Whether the endpoint is bound (`tcp://*:5555` is fine) or connected to (it must name a peer).
    package enum Role: Sendable {
        case bind, connect
    }

    /// What is wrong with an endpoint.
    package struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        package let endpoint: String
        package let reason: String

        package var description: String { "'\(endpoint)' is not a ZeroMQ endpoint: \(reason)" }
    }

    /// - Throws: `Problem` naming what is wrong.
    package static func check(_ endpoint: String, for role: Role) throws(Problem) {
        func problem(_ reason: String) -> Problem { Problem(endpoint: endpoint, reason: reason) }
        guard let separator = endpoint.firstRange(of: "://") else {
            let example = role == .bind ? "tcp://*:5555" : "tcp://127.0.0.1:5555"
            throw problem(
                endpoint.contains(":")
                    ? "it has no transport; write tcp://\(endpoint)"
                    : "expected TRANSPORT://ADDRESS, e.g. \(example), ipc:///run/tally.sock or inproc://name")
        }
        let transport = endpoint[..<separator.lowerBound]
        let address = String(endpoint[separator.upperBound...])
        switch transport {
        case "tcp":
            try checkTCP(address, role: role, problem: problem)
        case "ipc", "inproc":
            guard !address.isEmpty else {
                throw problem("\(transport):// needs a \(transport == "ipc" ? "path" : "name")")
            }
        default:
            throw problem("unsupported transport '\(transport)' (tcp, ipc or inproc)")
        }
    }

    private static func checkTCP(_ address: String, role: Role, problem: (String) -> Problem) throws(Problem) {
        guard let colon = address.lastIndex(of: ":") else { throw problem("tcp:// needs HOST:PORT") }
        let host = address[..<colon]
        let port = address[address.index(after: colon)...]
        if port == "*" || port == "0" {
            guard role == .bind else { throw problem("a peer's port must be a number 1...65535") }
        } else {
            guard let number = Int(port), (1...65_535).contains(number), port.allSatisfy(\.isASCII) else {
                throw problem("the port must be a number 1...65535\(role == .bind ? " (or * for any)" : "")")
            }
        }
        if host == "*" {
            guard role == .bind else { throw problem("'*' (every interface) can only be bound, not connected to") }
            return
        }
        if host.hasPrefix("[") {
            guard host.hasSuffix("]"), host.count > 2,
                host.dropFirst().dropLast().allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." || $0 == "%" })
            else { throw problem("an IPv6 host is written [ADDRESS], e.g. [::1]") }
            return
        }
        guard !host.isEmpty else { throw problem("tcp:// needs a host before the port") }
        guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._".contains($0)) }) else {
            throw problem("'\(host)' is not a host name or address")
        }
    }
}
