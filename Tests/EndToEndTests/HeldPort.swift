import Foundation
import TallyTesting

/// A loopback TCP port this test process listens on, so that a process under test finds it taken; freed on
/// `deinit`. Also a way to pick a port that is free on `::1`, which `ProcessProbes.freeLoopbackAddress` (IPv4)
/// does not give.
final class HeldPort {
    let descriptor: Int32
    let port: UInt16

    /// - Parameter ipv6: listen on `::1` instead of `127.0.0.1`.
    init(ipv6: Bool = false) throws {
        let descriptor = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ProcessError("socket: errno \(errno)") }
        var storage = sockaddr_storage()
        var length: socklen_t
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_addr = in6addr_loopback
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeBytes(of: address) { bytes in
                withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeBytes(of: address) { bytes in
                withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) }
            }
        }
        let bound = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && listen(descriptor, 4) == 0
                    && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw ProcessError("bind/listen on loopback: errno \(errno)")
        }
        self.descriptor = descriptor
        // The port sits at the same offset in sockaddr_in and sockaddr_in6, in network byte order.
        port = withUnsafeBytes(of: storage) { bytes in
            UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: 2, as: UInt16.self))
        }
    }

    deinit { close(descriptor) }
}
