import ZeroMQ

extension BrokerSnapshot {
    /// One worker process as a service sees it: the connections it registered for that service, taken together.
    ///
    /// A Tally worker names itself in READY (`WorkerCapabilities`: `instance` to group its connections, `name` for
    /// people); a plain MDP/0.1 connection names nothing and is a process of its own, known by its routing id.
    package struct WorkerProcess: Sendable, Hashable {
        /// What the process calls itself (`host/pid` for a Tally worker); `nil` when it said nothing. A peer's
        /// bytes: printable ASCII, at most `WorkerCapabilities.maximumNameLength` of them, and nothing more.
        package var name: String?
        /// How the broker tells it apart: the instance it named, or its connection's routing id in hex.
        package var id: String
        /// Connections registered for the service.
        package var connections: Int
        /// Requests those connections can hold at once.
        package var credit: Int
        /// Requests sent to them and not answered yet.
        package var inFlight: Int
        /// Replies delivered from its current connections (a connection that goes takes its count with it).
        package var served: Int
        /// Of those, error responses.
        package var errors: Int
        /// Time since the broker last heard from any of those connections (a reply, a heartbeat, READY).
        package var silence: Duration

        package init(
            name: String?, id: String, connections: Int = 0, credit: Int = 0, inFlight: Int = 0, served: Int = 0,
            errors: Int = 0, silence: Duration = .zero
        ) {
            self.name = name
            self.id = id
            self.connections = connections
            self.credit = credit
            self.inFlight = inFlight
            self.served = served
            self.errors = errors
            self.silence = silence
        }
    }
}

extension BrokerStateMachine {
    /// `snapshot` with the detail an operator's console shows: each service's worker processes and the wait of
    /// the head of its queue. Walks every connection: built at most once a second for the console, never on the
    /// message path.
    package func detailedSnapshot(now: Duration) -> BrokerSnapshot {
        var snapshot = self.snapshot
        var rows: [Int: [Int: BrokerSnapshot.WorkerProcess]] = [:]
        for worker in workers.allValues {
            let silence = max(.zero, now - (worker.expiresAt - workerExpiry))
            var row =
                rows[worker.service]?[worker.instance]
                ?? BrokerSnapshot.WorkerProcess(
                    name: instances[worker.instance].name, id: Self.identity(instances.key(of: worker.instance)),
                    silence: silence)
            row.connections += 1
            row.credit += worker.credit
            row.inFlight += worker.held.count
            row.served += worker.served
            row.errors += worker.errors
            row.silence = min(row.silence, silence)
            rows[worker.service, default: [:]][worker.instance] = row
        }
        for slot in services.slots {
            let name = services[slot].name
            snapshot.services[name]?.oldestWait = services[slot].queue.first.map { now - $0.arrivedAt }
            snapshot.services[name]?.processes = (rows[slot] ?? [:]).values.sorted {
                ($0.name ?? "", $0.id) < ($1.name ?? "", $1.id)
            }
        }
        return snapshot
    }

    /// How the console tells a process apart: its instance, or its connection's routing id in hex.
    static func identity(_ instance: Instance) -> String {
        switch instance {
        case .process(let id): id
        case .connection(let frame):
            frame.bytes.prefix(32).map { byte in byte < 16 ? "0" + String(byte, radix: 16) : String(byte, radix: 16) }
                .joined()
        }
    }
}
