import Foundation
import TallyTesting

/// A bare HTTP/1.0 GET over a socket, for addresses `URLSession` cannot reach: on Linux it refuses URLs whose host
/// is an IPv6 literal (`http://[::1]:9100/` fails with `NSURLErrorBadURL`).
enum PlainHTTPGet {
    /// The status code of `GET path` at `host` (an IPv4 or IPv6 literal) and `port`, or `nil` when nothing
    /// answered within two seconds. Runs on a thread of its own: the socket calls block.
    static func status(host: String, port: UInt16, path: String) async -> Int? {
        try? await onOwnThread { fetchStatus(host: host, port: port, path: path) }
    }

    private static func fetchStatus(host: String, port: UInt16, path: String) -> Int? {
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
        let request = Array("GET \(path) HTTP/1.0\r\nHost: localhost\r\n\r\n".utf8)
        guard send(descriptor, request, request.count, 0) == request.count else { return nil }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !response.contains(UInt8(ascii: "\n")) {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            response.append(contentsOf: buffer[..<count])
        }
        // "HTTP/1.1 200 OK"
        let statusLine = String(decoding: response.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        let fields = statusLine.split(separator: " ")
        return fields.count >= 2 && fields[0].hasPrefix("HTTP/") ? Int(fields[1]) : nil
    }
}
