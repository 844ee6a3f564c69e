import Foundation

/// What `tally top` prints: for each broker, a line about the broker, a table of its services, one of their worker
/// processes and its latest incidents, the way nats-top and htop lay out theirs. Pure text from documents: every
/// peer string goes through `TerminalText`, and each line is cut to the terminal's width when there is one.
package struct TopScreen: Sendable {
    /// One broker as `tally top` found it.
    package struct Broker: Sendable {
        /// The `--http` address asked.
        package var address: String
        /// Its document, or why there is none.
        package var outcome: Result<ClusterDocument, TopFailure>

        package init(address: String, outcome: Result<ClusterDocument, TopFailure>) {
            self.address = address
            self.outcome = outcome
        }
    }

    /// Columns of the terminal; `nil` (not a terminal, `--once` into a file): lines are not cut.
    package var width: Int?
    /// Incidents shown per broker.
    package var incidents: Int

    package init(width: Int?, incidents: Int) {
        self.width = width
        self.incidents = incidents
    }

    package func lines(_ brokers: [Broker]) -> [String] {
        var lines: [String] = []
        for broker in brokers {
            if !lines.isEmpty { lines.append("") }
            switch broker.outcome {
            case .success(let document): lines += self.lines(document, at: broker.address)
            case .failure(let failure):
                lines.append(
                    "\(TerminalText.sanitized(broker.address)): \(TerminalText.sanitized(failure.description))")
            }
        }
        guard let width else { return lines }
        return lines.map { $0.count > width ? String($0.prefix(width)) : $0 }
    }

    func lines(_ document: ClusterDocument, at address: String) -> [String] {
        let broker = document.broker
        var lines = [
            "\(TerminalText.sanitized(address))  broker \(TerminalText.sanitized(broker.version))  up "
                + "\(Self.duration(broker.uptimeSeconds))  CURVE \(broker.curve ? "on" : "off")  "
                + "\(broker.draining ? "DRAINING" : "serving")  clients \(broker.clientConnections)  "
                + "worker connections \(broker.workerConnections)  at \(TerminalText.sanitized(document.generatedAt))"
        ]
        var services = TextTable(
            headers: [
                "SERVICE", "PROCS", "CONN", "CREDIT", "INFLT", "QUEUED", "OLDEST", "REQ/S", "P50", "P99", "ERRORS (1m)",
            ], textColumns: [0, 10])
        var processes = TextTable(
            headers: [
                "PROCESS", "SERVICE", "CONN", "CREDIT", "INFLT", "SERVED", "ERRORS", "HEARD",
            ], textColumns: [0, 1])
        for service in document.services {
            let window = service.lastMinute
            services.add([
                TerminalText.cell(service.name, width: 40), "\(service.workerProcesses)", "\(service.connections)",
                "\(service.credit)", "\(service.inFlight)", "\(service.queued)",
                Self.milliseconds(service.oldestWaitMilliseconds), Self.rate(window.requestsPerSecond),
                Self.milliseconds(window.p50Milliseconds), Self.milliseconds(window.p99Milliseconds),
                window.errors.isEmpty
                    ? "-"
                    : window.errors.map { "\(TerminalText.cell($0.code, width: 32))×\($0.count)" }.joined(
                        separator: " "),
            ])
            for process in service.processes {
                processes.add([
                    TerminalText.cell(process.name ?? "mdp \(process.id)", width: 40),
                    TerminalText.cell(service.name, width: 40), "\(process.connections)", "\(process.credit)",
                    "\(process.inFlight)", "\(process.served)", "\(process.errors)",
                    Self.milliseconds(process.lastHeardMilliseconds),
                ])
            }
            if service.processesNotListed > 0 {
                processes.add(["(\(service.processesNotListed) more)", TerminalText.cell(service.name, width: 40)])
            }
        }
        lines += services.lines
        if document.servicesNotListed > 0 { lines.append("(\(document.servicesNotListed) more services)") }
        lines.append("")
        lines += processes.lines
        if incidents > 0, !document.incidents.isEmpty {
            lines.append("")
            var table = TextTable(
                headers: ["LAST", "INCIDENT", "SERVICE", "COUNT", "DETAIL"], textColumns: [0, 1, 2, 4])
            for incident in document.incidents.prefix(incidents) {
                table.add([
                    TerminalText.sanitized(incident.lastAt), TerminalText.cell(incident.kind, width: 24),
                    TerminalText.cell(incident.service ?? "-", width: 40), "\(incident.count)",
                    TerminalText.sanitized(incident.detail),
                ])
            }
            lines += table.lines
        }
        return lines
    }

    static func rate(_ value: Double) -> String {
        value < 10 ? String(format: "%.2f", value) : value < 100 ? String(format: "%.1f", value) : "\(Int(value))"
    }

    static func milliseconds(_ value: Double?) -> String {
        guard let value else { return "-" }
        if value >= 10_000 { return "\(Int(value / 1000))s" }
        return value < 10 ? String(format: "%.2fms", value) : "\(Int(value.rounded()))ms"
    }

    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds)
        let (days, hours, minutes) = (whole / 86_400, whole % 86_400 / 3600, whole % 3600 / 60)
        if days > 0 { return "\(days)d\(hours)h" }
        if hours > 0 { return "\(hours)h\(minutes)m" }
        return minutes > 0 ? "\(minutes)m\(whole % 60)s" : "\(whole)s"
    }
}

/// Why `tally top` has no document from a broker.
package enum TopFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing answered: no connection, or no whole answer within the timeout.
    case noAnswer(String)
    /// Something answered, but not with a console document (an HTTP error status, a broker without the console,
    /// JSON of another shape).
    case notAConsole(String)

    package var description: String {
        switch self {
        case .noAnswer(let reason): "no answer (\(reason))"
        case .notAConsole(let reason): "not a Tally console (\(reason))"
        }
    }
}

/// Left-aligned first columns and right-aligned numbers, padded to the widest cell of each column.
struct TextTable {
    let headers: [String]
    /// Columns of text, left-aligned; the others hold numbers and are right-aligned.
    let textColumns: Set<Int>
    private var rows: [[String]] = []

    init(headers: [String], textColumns: Set<Int>) {
        self.headers = headers
        self.textColumns = textColumns
    }

    mutating func add(_ row: [String]) {
        rows.append(row)
    }

    /// The header and the rows; the last column is never padded.
    var lines: [String] {
        let all = [headers] + rows
        let widths = headers.indices.map { column in all.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return all.map { row in
            headers.indices.map { column in
                let cell = column < row.count ? row[column] : ""
                let padding = String(repeating: " ", count: max(0, widths[column] - cell.count))
                if column == headers.count - 1 { return cell }
                return textColumns.contains(column) ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }
    }
}
