import Foundation

/// One HTTP/1.1 connection over a blocking socket, kept alive across requests: for the gateway's end-to-end tests,
/// which must see exactly what goes over the wire (statuses, headers, keep-alive, a body cut short), where
/// `URLSession` hides it and cannot be held to one connection.
///
/// - Important: every call blocks (each receive for at most `timeout`); run it on a thread of its own
///   (`onOwnThread`), never on the cooperative pool.
package final class HTTPTestConnection: @unchecked Sendable {
    // Unchecked: the descriptor and the buffer are used by one thread at a time, the one a test runs it on.

    /// An answer: its status, its headers (names in lowercase) and its body.
    package struct Response: Sendable {
        package let status: Int
        package let headers: [String: String]
        package let body: [UInt8]

        package var text: String { String(decoding: body, as: UTF8.self) }

        /// The body as JSON.
        package func json() throws -> Any {
            try JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])
        }
    }

    private let descriptor: Int32
    private var pending: [UInt8] = []

    /// Connects to `host` (an IPv4 literal) and `port`.
    package init(host: String, port: UInt16, timeout: Duration = .seconds(15)) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ProcessError("socket: errno \(errno)") }
        let seconds = Int(timeout.components.seconds)
        var time = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw ProcessError("connect to \(host):\(port): errno \(errno)")
        }
    }

    deinit { close(descriptor) }

    /// Sends a request with `Content-Length` (when it has a body) and reads its answer.
    package func request(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) throws -> Response {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: localhost\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try write(Array(head.utf8) + (body ?? []))
        return try readResponse(hasBody: method != "HEAD")
    }

    /// `POST path` with a JSON body.
    package func post(_ path: String, _ body: String, headers: [(String, String)] = []) throws -> Response {
        try request("POST", path, headers: [("Content-Type", "application/json")] + headers, body: Array(body.utf8))
    }

    /// Writes raw bytes: a request cut short, a body that never comes.
    package func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw ProcessError("send: errno \(errno)") }
            offset += sent
        }
    }

    /// Reads one response: its head, then `Content-Length` bytes of body (none for the answer to a `HEAD`).
    package func readResponse(hasBody: Bool = true) throws -> Response {
        while headEnd() == nil { try fill() }
        let end = headEnd()!
        let lines = String(decoding: pending[..<(end - 4)], as: UTF8.self).components(separatedBy: "\r\n")
        let fields = lines[0].split(separator: " ")
        guard fields.count >= 2, let status = Int(fields[1]) else { throw ProcessError("no status in '\(lines[0])'") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let length = hasBody ? headers["content-length"].flatMap { Int($0) } ?? 0 : 0
        while pending.count < end + length { try fill() }
        let body = Array(pending[end..<(end + length)])
        pending.removeFirst(end + length)
        return Response(status: status, headers: headers, body: body)
    }

    /// Whether the server has closed the connection: a read that finds its end (after what is pending).
    package func isClosedByServer() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    private func headEnd() -> Int? {
        guard pending.count >= 4 else { return nil }
        for index in 0...(pending.count - 4)
        where pending[index] == 13 && pending[index + 1] == 10 && pending[index + 2] == 13 && pending[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    private func fill() throws {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else {
            throw ProcessError(count == 0 ? "the server closed the connection" : "recv: errno \(errno)")
        }
        pending.append(contentsOf: buffer[..<count])
    }
}
