import Foundation
import TallyTesting

/// A bare HTTP/1.0 GET over a socket, for addresses `URLSession` cannot reach: on Linux it refuses URLs whose host
/// is an IPv6 literal (`http://[::1]:9100/` fails with `NSURLErrorBadURL`).
enum PlainHTTPGet {
    /// A response: its status code and body.
    struct Response {
        let status: Int
        let body: String
    }

    /// The status code of `GET path` at `host` (an IPv4 or IPv6 literal) and `port`, or `nil` when nothing
    /// answered within two seconds. Runs on a thread of its own: the socket calls block.
    static func status(host: String, port: UInt16, path: String) async -> Int? {
        await get(host: host, port: port, path: path)?.status
    }

    /// `GET path` at `address` (`host:port`, the host an IPv4 literal or `[IPv6]`), or `nil` when nothing answered
    /// within two seconds.
    static func get(_ address: String, path: String) async -> Response? {
        guard let colon = address.lastIndex(of: ":"), let port = UInt16(address[address.index(after: colon)...])
        else { return nil }
        let host = address[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return await get(host: host, port: port, path: path)
    }

    /// `GET path` at `host` and `port`. Runs on a thread of its own: the socket calls block, each for at most two
    /// seconds. A socket rather than `URLSession`, which cannot reach an IPv6 literal on Linux and whose task
    /// cancellation can deadlock against a completing transfer (a metrics sampler cancelled mid-request hung the
    /// whole suite).
    static func get(host: String, port: UInt16, path: String) async -> Response? {
        try? await onOwnThread { fetch(host: host, port: port, path: path) }
    }

    private static func fetch(host: String, port: UInt16, path: String) -> Response? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let list else { return nil }
        defer { freeaddrinfo(list) }
        let descriptor = socket(list.pointee.ai_family, list.pointee.ai_socktype, list.pointee.ai_protocol)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard connect(descriptor, list.pointee.ai_addr, list.pointee.ai_addrlen) == 0 else { return nil }
        let request = Array("GET \(path) HTTP/1.0\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8)
        guard send(descriptor, request, request.count, 0) == request.count else { return nil }
        // Everything up to the end of the headers, then as much body as Content-Length says (or until the server
        // closes, without one).
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        var bodyStart: Int?
        var bodyLength: Int?
        while bodyStart == nil || bodyLength.map({ response.count < bodyStart! + $0 }) ?? true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            response.append(contentsOf: buffer[..<count])
            if bodyStart == nil, let end = headersEnd(response) {
                bodyStart = end
                bodyLength = contentLength(String(decoding: response[..<end], as: UTF8.self))
            }
        }
        // "HTTP/1.1 200 OK"
        let statusLine = String(decoding: response.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        let fields = statusLine.split(separator: " ")
        guard fields.count >= 2, fields[0].hasPrefix("HTTP/"), let status = Int(fields[1]) else { return nil }
        return Response(
            status: status, body: String(decoding: response[(bodyStart ?? response.count)...], as: UTF8.self))
    }

    /// The offset just past the blank line that ends the headers.
    private static func headersEnd(_ bytes: [UInt8]) -> Int? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where bytes[index..<index + 4].elementsEqual(separator) { return index + 4 }
        return nil
    }

    private static func contentLength(_ headers: String) -> Int? {
        for line in headers.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" {
                return Int(parts[1].trimmingCharacters(in: .whitespaces))
            }
        }
        return nil
    }
}
