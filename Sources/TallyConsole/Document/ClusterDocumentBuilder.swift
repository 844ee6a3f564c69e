import Foundation
import Majordomo
import TallyCalendar

/// Builds the console's document from the broker's detailed snapshot (live state: workers, queues, connections)
/// and the recorder's reading (the past: windows, incidents, the chart), within the document's bounds.
package struct ClusterDocumentBuilder: Sendable {
    /// What the broker process says of itself.
    package struct BrokerFacts: Sendable {
        package var version: String
        package var startedAt: Date
        package var curve: Bool

        package init(version: String, startedAt: Date, curve: Bool) {
            self.version = version
            self.startedAt = startedAt
            self.curve = curve
        }
    }

    package var facts: BrokerFacts
    package var refreshSeconds: Double

    package init(facts: BrokerFacts, refreshSeconds: Double) {
        self.facts = facts
        self.refreshSeconds = refreshSeconds
    }

    func document(snapshot: BrokerSnapshot, reading: ConsoleReading, now: Date) -> ClusterDocument {
        // Services the broker holds now, and registered ones it forgot that still had traffic in the window.
        var names = Set(snapshot.services.keys)
        for (name, window) in reading.windows where window.requestsPerSecond > 0 || !window.errors.isEmpty {
            names.insert(name)
        }
        let sorted = names.sorted()
        let listed = sorted.prefix(ClusterDocument.maximumServices)
        var rowsLeft = ClusterDocument.maximumProcessRows
        var services: [ClusterDocument.ServiceSummary] = []
        services.reserveCapacity(listed.count)
        for name in listed {
            let state = snapshot.services[name] ?? BrokerSnapshot.ServiceState()
            let shown = state.processes.prefix(rowsLeft)
            rowsLeft -= shown.count
            services.append(
                ClusterDocument.ServiceSummary(
                    name: name, queued: state.queued, oldestWaitMilliseconds: state.oldestWait.map(Self.milliseconds),
                    inFlight: state.inFlight, credit: state.credit, connections: state.workers,
                    workerProcesses: state.workerProcesses, processes: shown.map(Self.process),
                    processesNotListed: state.processes.count - shown.count,
                    lastMinute: reading.windows[name] ?? Self.emptyWindow))
        }
        let workerConnections = snapshot.workers
        let peers = snapshot.peerConnections ?? 0
        return ClusterDocument(
            version: 1, generatedAt: Self.text(now), refreshSeconds: refreshSeconds,
            broker: ClusterDocument.BrokerSummary(
                version: facts.version, startedAt: Self.text(facts.startedAt),
                uptimeSeconds: max(0, now.timeIntervalSince(facts.startedAt)), curve: facts.curve,
                draining: snapshot.isDraining, clientConnections: max(0, peers - workerConnections),
                peerConnections: peers, workerConnections: workerConnections),
            services: services, servicesNotListed: sorted.count - listed.count,
            incidents: reading.incidents.map(Self.incident),
            series: ClusterDocument.RateSeries(
                stepSeconds: ConsoleRecorder.step.seconds,
                points: reading.history.map {
                    ClusterDocument.RateSeries.Point(
                        at: Self.text($0.end), requestsPerSecond: $0.requestsPerSecond,
                        p99Milliseconds: $0.p99Milliseconds)
                }))
    }

    static let emptyWindow = ClusterDocument.Window(
        seconds: 0, requestsPerSecond: 0, errors: [], p50Milliseconds: nil, p99Milliseconds: nil)

    static func process(_ process: BrokerSnapshot.WorkerProcess) -> ClusterDocument.WorkerProcess {
        ClusterDocument.WorkerProcess(
            name: process.name, id: process.id, connections: process.connections, credit: process.credit,
            inFlight: process.inFlight, served: process.served, errors: process.errors,
            lastHeardMilliseconds: milliseconds(process.silence))
    }

    static func incident(_ entry: IncidentLog.Entry) -> ClusterDocument.Incident {
        ClusterDocument.Incident(
            kind: entry.key.kind, service: entry.key.service, reason: entry.key.reason, detail: entry.detail,
            count: entry.count, firstAt: text(entry.first), lastAt: text(entry.last))
    }

    static func milliseconds(_ duration: Duration) -> Double {
        (duration.seconds * 1000 * 10).rounded() / 10
    }

    /// RFC 3339 in UTC, with milliseconds.
    static func text(_ date: Date) -> String {
        RFC3339.format(Instant(date), offset: 0)
    }
}
