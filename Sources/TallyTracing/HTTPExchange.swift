#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One HTTP/1.1 request over a plain TCP connection, blocking, bounded by a timeout for connecting, sending and
/// each read, and by a size for the answer: all the OTLP/HTTP exporter (a POST) and `tally top` (a GET of the
/// broker's console) need, each on a thread of its own, without an HTTP client library.
package struct HTTPExchange: Sendable {
    package let host: String
    package let port: Int
    package let timeout: Duration

    package init(host: String, port: Int, timeout: Duration) {
        self.host = host
        self.port = port
        self.timeout = timeout
    }

    /// No SIGPIPE when the receiver has gone: the send fails with EPIPE instead.
    #if os(Linux)
    private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
    private static let sendFlags: Int32 = 0
    #endif

    package struct Response: Sendable {
        package var status: Int
        /// The body, as far as `Content-Length` says (or until the server closed the connection).
        package var body: [UInt8]
    }

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
        /// Whether something answered at all: a connection was made and bytes came back, just not a whole HTTP
        /// response (`false`: no name, no connection, nothing within the timeout).
        package let answered: Bool
    }

    /// `method path` with `body`, and the response.
    /// - Parameter maxResponseBytes: a longer response is refused (`Failure`), so a wrong port cannot fill memory.
    /// - Throws: `Failure` when the address does not resolve, nothing accepts the connection, or no whole response
    ///   arrives within the timeout and the size.
    package func request(
        _ method: String, _ path: String, body: [UInt8] = [], contentType: String? = nil,
        maxResponseBytes: Int = 64 << 20
    ) throws(Failure) -> Response {
        let descriptor = try openConnection()
        defer { close(descriptor) }
        let hostHeader = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(hostHeader)\r\nConnection: close\r\nUser-Agent: tally\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        try writeAll(Array((head + "\r\n").utf8) + body, to: descriptor)
        return try readResponse(from: descriptor, limit: maxResponseBytes)
    }

    private func openConnection() throws(Failure) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
        hints.ai_socktype = SOCK_STREAM
        #else
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw Failure(
                description: "cannot resolve \(host): \(String(cString: gai_strerror(status)))", answered: false)
        }
        defer { freeaddrinfo(list) }
        var lastError: Int32 = 0
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let address = candidate {
            candidate = address.pointee.ai_next
            let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype, 0)
            guard descriptor >= 0 else {
                lastError = errno
                continue
            }
            // On Linux the send timeout bounds connect() too.
            setTimeout(descriptor)
            if connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return descriptor }
            lastError = errno
            close(descriptor)
        }
        throw Failure(
            description: "cannot connect to \(host):\(port): \(String(cString: strerror(lastError)))", answered: false)
    }

    private func setTimeout(_ socket: Int32) {
        let seconds = timeout.components.seconds
        let microseconds = timeout.components.attoseconds / 1_000_000_000_000
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int(microseconds))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    private func writeAll(_ bytes: [UInt8], to socket: Int32) throws(Failure) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                send(socket, buffer.baseAddress! + sent, buffer.count - sent, Self.sendFlags)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                throw Failure(
                    description: "sending to \(host):\(port) failed: \(String(cString: strerror(errno)))",
                    answered: false)
            }
            sent += count
        }
    }

    /// Reads the status line and headers, then the body as far as `Content-Length` says, or until the server closes
    /// the connection when it says nothing.
    private func readResponse(from socket: Int32, limit: Int) throws(Failure) -> Response {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        var headEnd: Int?
        var length: Int?
        while headEnd == nil || length.map({ received.count < headEnd! + $0 }) ?? true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count == 0, headEnd != nil, length == nil { break }
            guard count > 0 else {
                let reason = count < 0 ? ": \(String(cString: strerror(errno)))" : ""
                throw Failure(
                    description: "no \(received.isEmpty ? "" : "whole ")answer from \(host):\(port)\(reason)",
                    answered: !received.isEmpty)
            }
            received += buffer[..<count]
            guard received.count <= limit else {
                throw Failure(description: "\(host):\(port) answered more than \(limit) bytes", answered: true)
            }
            if headEnd == nil, let end = Self.headEnd(received) {
                headEnd = end
                length = Self.contentLength(received[..<end])
            }
        }
        let end = headEnd ?? received.count
        let line = String(
            decoding: received.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        let parts = line.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let code = Int(parts[1]) else {
            throw Failure(description: "\(host):\(port) did not answer HTTP: '\(line.prefix(80))'", answered: true)
        }
        return Response(status: code, body: Array(received[end...].prefix(length ?? Int.max)))
    }

    /// The offset just past the blank line that ends the headers.
    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    private static func contentLength(_ head: ArraySlice<UInt8>) -> Int? {
        for line in String(decoding: head, as: UTF8.self).split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" {
                return Int(parts[1].trimmingPrefix(" "))
            }
        }
        return nil
    }
}

/// A POST to one path (the OTLP exporter's receiver).
struct HTTPPost {
    let host: String
    let port: Int
    let path: String
    let timeout: Duration

    /// Sends `body` and returns the response's status code.
    /// - Throws: `HTTPExchange.Failure` when the address does not resolve, nothing accepts the connection, or no
    ///   response arrives within the timeout.
    func post(_ body: [UInt8], contentType: String) throws(HTTPExchange.Failure) -> Int {
        try HTTPExchange(host: host, port: port, timeout: timeout)
            .request("POST", path, body: body, contentType: contentType, maxResponseBytes: 1 << 20).status
    }
}
