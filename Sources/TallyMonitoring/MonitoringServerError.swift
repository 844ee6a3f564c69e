/// Why the HTTP endpoint could not start or stopped on its own, always naming the address: "Address already in
/// use" alone does not tell an operator which of a host's processes and settings to look at.
package enum MonitoringServerError: Error, CustomStringConvertible {
    /// The host name did not resolve to an address.
    case unresolved(MonitoringServer.Address, reason: String)
    /// Binding or listening failed: the port is taken, the address is not this host's, the port needs privileges.
    case cannotListen(MonitoringServer.Address, reason: String)
    /// The server ended with an error while serving.
    case failed(MonitoringServer.Address, reason: String)

    package var description: String {
        switch self {
        case .unresolved(let address, let reason):
            "cannot serve HTTP on \(address): the host name does not resolve (\(reason))"
        case .cannotListen(let address, let reason):
            "cannot serve HTTP on \(address): \(reason)"
        case .failed(let address, let reason):
            "the HTTP endpoint on \(address) stopped: \(reason)"
        }
    }
}
