#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One HTTP/1.1 POST over a plain TCP connection, blocking, bounded by a timeout for connecting, sending and
/// reading the answer: all the OTLP/HTTP exporter needs, on its own thread, without an HTTP client library.
struct HTTPPost {
    let host: String
    let port: Int
    let path: String
    let timeout: Duration

    /// No SIGPIPE when the receiver has gone: the send fails with EPIPE instead.
    #if os(Linux)
    private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
    private static let sendFlags: Int32 = 0
    #endif

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Sends `body` and returns the response's status code.
    /// - Throws: `Failure` when the address does not resolve, nothing accepts the connection, or no status line
    ///   arrives within the timeout.
    func post(_ body: [UInt8], contentType: String) throws(Failure) -> Int {
        let descriptor = try openConnection()
        defer { close(descriptor) }
        let hostHeader = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let head =
            "POST \(path) HTTP/1.1\r\nHost: \(hostHeader)\r\nContent-Type: \(contentType)\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\nUser-Agent: tally\r\n\r\n"
        try writeAll(Array(head.utf8) + body, to: descriptor)
        return try readStatus(from: descriptor)
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
            throw Failure(description: "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
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
        throw Failure(description: "cannot connect to \(host):\(port): \(String(cString: strerror(lastError)))")
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
                throw Failure(description: "sending to \(host):\(port) failed: \(String(cString: strerror(errno)))")
            }
            sent += count
        }
    }

    /// Reads until the status line is complete: `HTTP/1.1 200 OK`.
    private func readStatus(from socket: Int32) throws(Failure) -> Int {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while !received.contains(UInt8(ascii: "\n")) && received.count < 8192 {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                throw Failure(
                    description:
                        "no answer from \(host):\(port)\(count < 0 ? ": \(String(cString: strerror(errno)))" : "")")
            }
            received += buffer[..<count]
        }
        let line = String(
            decoding: received.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        let parts = line.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let code = Int(parts[1]) else {
            throw Failure(description: "\(host):\(port) did not answer HTTP: '\(line.prefix(80))'")
        }
        return code
    }
}
