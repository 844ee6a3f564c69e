import FlyingFox
import FlyingSocks
import Foundation
import Logging

/// The socket address an HTTP server listens on, resolved from a ``MonitoringServer/Address``.
///
/// A host name is resolved once, at start (before anything else runs, so the blocking resolver holds no thread
/// anyone waits for). Like Go's `net.Listen`, the server listens on one address: the name's first IPv4 address,
/// else its first IPv6 address; IPv4 first because that is what a scrape configuration written `localhost:9100`
/// usually reaches.
enum ListenEndpoint {
    case ipv4(sockaddr_in)
    case ipv6(sockaddr_in6)

    /// - Throws: `MonitoringServerError.unresolved`.
    init(resolving address: MonitoringServer.Address) throws(MonitoringServerError) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(address.host, String(address.port), &hints, &list)
        guard status == 0, let list else {
            throw .unresolved(address, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var ipv6: sockaddr_in6?
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let current = entry {
            if let socketAddress = current.pointee.ai_addr {
                if current.pointee.ai_family == AF_INET {
                    self = .ipv4(UnsafeRawPointer(socketAddress).loadUnaligned(as: sockaddr_in.self))
                    return
                }
                if current.pointee.ai_family == AF_INET6, ipv6 == nil {
                    ipv6 = UnsafeRawPointer(socketAddress).loadUnaligned(as: sockaddr_in6.self)
                }
            }
            entry = current.pointee.ai_next
        }
        guard let ipv6 else { throw .unresolved(address, reason: "no IPv4 or IPv6 address") }
        self = .ipv6(ipv6)
    }

    /// Binds and listens once, as the server will, and lets go: a port that is taken, an address that is not this
    /// host's or a port that needs privileges stops the process at start, naming the address, instead of after
    /// it has said it is ready. (Another process may still take the port in between; the server's own error then
    /// names the address too.)
    /// - Throws: `MonitoringServerError.cannotListen`.
    func checkCanListen(_ address: MonitoringServer.Address) throws(MonitoringServerError) {
        do {
            switch self {
            case .ipv4(let socketAddress): try Self.bindAndListen(socketAddress)
            case .ipv6(let socketAddress): try Self.bindAndListen(socketAddress)
            }
        } catch {
            throw .cannotListen(address, reason: Self.reason(error))
        }
    }

    /// An HTTP server for this address.
    func server(logger: any FlyingSocks.Logging) -> HTTPServer {
        switch self {
        case .ipv4(let socketAddress): HTTPServer(address: socketAddress, logger: logger)
        case .ipv6(let socketAddress): HTTPServer(address: socketAddress, logger: logger)
        }
    }

    private static func bindAndListen(_ socketAddress: some SocketAddress) throws {
        let socket = try Socket(domain: Int32(type(of: socketAddress).family))
        defer { try? socket.close() }
        // As the server does: a port left in TIME_WAIT by a previous run is free, one being listened on is not.
        try socket.setValue(true, for: .localAddressReuse)
        try socket.bind(to: socketAddress)
        try socket.listen()
    }

    /// Whether `error` is the server's socket failing to open, bind or listen (rather than failing later).
    static func isListenFailure(_ error: any Error) -> Bool {
        guard case .failed(let call, _, _) = error as? SocketError else { return false }
        return ["CreateSocket", "SetOption", "Bind", "Listen"].contains(call)
    }

    /// The system's words for a socket error (`Address already in use`), without FlyingSocks' `SocketError.`
    /// prefix.
    static func reason(_ error: any Error) -> String {
        if case .failed(let call, let number, let message) = error as? SocketError {
            return "\(message) (\(call.lowercased()), errno \(number))"
        }
        return "\(error)"
    }
}
