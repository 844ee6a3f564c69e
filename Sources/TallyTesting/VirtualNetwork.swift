import Foundation

/// Several "hosts" on one machine for multi-host tests: a Linux network namespace per host, each with one veth
/// link to a bridge in a switch namespace, addressed `10.77.0.N/24` inside the namespaces only. Nothing is
/// created in, or changed on, the machine's own network namespace: both ends of every link are made directly in
/// the test's namespaces, and deleting the namespaces removes everything.
///
/// Traffic between hosts crosses real (virtual) links with real TCP, so a link can be unplugged at the switch
/// (``unplug(_:)``) while the processes on that host keep running, as a cable pulled out of a server would, or cut
/// in one direction only (``dropTraffic(from:to:)``).
///
/// Needs root and `ip` from iproute2, in a place that lets root make namespaces (some containers do not): check
/// ``availability`` first and skip the test when it is not `nil`. Use ``withNetwork(hosts:_:)``, which always
/// removes the namespaces, also when the body throws; namespaces (and processes) left by a test process that died
/// (SIGKILL) are removed by the next run.
package final class VirtualNetwork: Sendable {
    /// One simulated host: its namespace and its address on the shared link.
    package struct Host: Sendable, Hashable {
        package let role: String
        package let namespace: String
        package let address: String
        /// The switch port (a veth end in the switch namespace) that this host is plugged into.
        let port: String
    }

    /// Every namespace this type creates starts with this, then the creating process id.
    static let namePrefix = "tallynet-"

    package let hosts: [Host]
    let switchNamespace: String

    private init(hosts: [Host], switchNamespace: String) {
        self.hosts = hosts
        self.switchNamespace = switchNamespace
    }

    /// `nil` when namespaces can be made here, else why not (for a skip message).
    package static let availability: String? = {
        guard let ip = IPCommand.path else { return "no `ip` command (install iproute2)" }
        guard geteuid() == 0 else { return "needs root to create network namespaces (running as uid \(geteuid()))" }
        let probe = "\(namePrefix)\(getpid())-probe"
        let added = IPCommand.runBlocking(ip, ["netns", "add", probe])
        _ = IPCommand.runBlocking(ip, ["netns", "del", probe])
        return added ? nil : "`ip netns add` failed (no CAP_SYS_ADMIN in this container?)"
    }()

    /// Makes a network of `roles.count` hosts (addresses 10.77.0.1, .2, … in order), runs `body` and removes the
    /// network, whatever `body` does.
    package static func withNetwork<Result>(
        hosts roles: [String], _ body: (VirtualNetwork) async throws -> Result
    ) async throws -> Result {
        let network = try await create(roles)
        return try await released(network, by: { await $0.remove() }, after: body)
    }

    /// The host playing `role`.
    package func host(_ role: String) -> Host {
        guard let host = hosts.first(where: { $0.role == role }) else { preconditionFailure("no host '\(role)'") }
        return host
    }

    /// Starts `executable` inside the namespace of `role` (`ip netns exec`, which execs it: the process id is the
    /// program's own, so signals reach it directly), at `niceness` (`nice -n`, which execs it too; negative for a
    /// priority above the rest of the machine's, as root may ask).
    package func start(
        on role: String, _ executable: URL, _ arguments: [String], name: String, niceness: Int = 0
    ) throws -> ManagedProcess {
        let priority = niceness == 0 ? [] : ["nice", "-n", String(niceness)]
        return try ManagedProcess(
            URL(fileURLWithPath: try IPCommand.required()),
            ["netns", "exec", host(role).namespace] + priority + [executable.path] + arguments, name: name)
    }

    /// Runs a short command inside the namespace of `role` to completion (a fetch from inside the network).
    package func run(
        on role: String, _ executable: URL, _ arguments: [String], timeout: Duration = .seconds(10)
    ) async throws -> ShortCommand.Result {
        try await ShortCommand.run(
            URL(fileURLWithPath: try IPCommand.required()),
            ["netns", "exec", host(role).namespace, executable.path] + arguments, timeout: timeout)
    }

    /// Takes the host's link down at the switch: its packets go nowhere, its TCP connections stay open.
    package func unplug(_ role: String) async throws {
        try await IPCommand.run(["-n", switchNamespace, "link", "set", host(role).port, "down"])
    }

    /// Brings the host's link back up.
    package func plug(_ role: String) async throws {
        try await IPCommand.run(["-n", switchNamespace, "link", "set", host(role).port, "up"])
    }

    /// Drops, inside `role`'s host, every packet it sends to the hosts `destinations` (a blackhole route): the link
    /// cut in one direction only, as a one-sided firewall rule or a broken return route does it. Nothing is sent
    /// back to either side: no reset, no ICMP.
    package func dropTraffic(from role: String, to destinations: [String]) async throws {
        for destination in destinations {
            try await IPCommand.run([
                "-n", host(role).namespace, "route", "add", "blackhole", "\(host(destination).address)/32",
            ])
        }
    }

    /// Undoes `dropTraffic(from:to:)`.
    package func restoreTraffic(from role: String, to destinations: [String]) async throws {
        for destination in destinations {
            try await IPCommand.run([
                "-n", host(role).namespace, "route", "del", "blackhole", "\(host(destination).address)/32",
            ])
        }
    }

    static func create(_ roles: [String]) async throws -> VirtualNetwork {
        precondition(!roles.isEmpty && roles.count < 250 && Set(roles).count == roles.count)
        await removeLeftovers()
        let prefix = "\(namePrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))-"
        let hosts = roles.enumerated().map { index, role in
            Host(role: role, namespace: prefix + role, address: "10.77.0.\(index + 1)", port: "port\(index + 1)")
        }
        let network = VirtualNetwork(hosts: hosts, switchNamespace: prefix + "switch")
        do {
            let sw = network.switchNamespace
            try await IPCommand.run(["netns", "add", sw])
            try await IPCommand.run(["-n", sw, "link", "add", "bridge0", "type", "bridge"])
            try await IPCommand.run(["-n", sw, "link", "set", "bridge0", "up"])
            for host in hosts {
                try await IPCommand.run(["netns", "add", host.namespace])
                try await IPCommand.run(["-n", host.namespace, "link", "set", "lo", "up"])
                // Both ends are born inside the test's namespaces: the machine's own namespace never sees them.
                try await IPCommand.run([
                    "-n", sw, "link", "add", host.port, "type", "veth", "peer", "name", "eth0", "netns", host.namespace,
                ])
                try await IPCommand.run(["-n", sw, "link", "set", host.port, "master", "bridge0", "up"])
                try await IPCommand.run(["-n", host.namespace, "addr", "add", "\(host.address)/24", "dev", "eth0"])
                try await IPCommand.run(["-n", host.namespace, "link", "set", "eth0", "up"])
            }
        } catch {
            await network.remove()
            throw error
        }
        return network
    }

    /// Deletes every namespace of this network (their veth links go with them). Processes still inside are not
    /// killed by this: tests stop them first (a `ManagedProcess` is killed when released).
    package func remove() async {
        for namespace in hosts.map(\.namespace) + [switchNamespace] {
            _ = try? await IPCommand.run(["netns", "del", namespace])
        }
    }

    /// Namespaces of earlier test processes that no longer run (killed before they could clean up).
    static func removeLeftovers() async {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/run/netns")) ?? []
        for name in names where name.hasPrefix(namePrefix) {
            let owner = name.dropFirst(namePrefix.count).split(separator: "-").first.flatMap { Int32($0) }
            if let owner, owner != getpid(), kill(owner, 0) != 0, errno == ESRCH {
                // Its brokers and workers outlived it too (nobody was left to stop them): only they are killed,
                // found by the namespace they run in.
                let pids = (try? await IPCommand.run(["netns", "pids", name])) ?? ""
                for pid in pids.split(separator: "\n").compactMap({ Int32($0) }) where pid > 1 {
                    kill(pid, SIGKILL)
                }
                _ = try? await IPCommand.run(["netns", "del", name])
            }
        }
    }
}
