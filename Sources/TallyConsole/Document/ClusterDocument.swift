/// The console's view of one broker and what it knows of the cluster: `GET /console/v1/cluster.json` on the
/// broker's `--http` port, for the page at `/`, for `tally top` and for other tools.
///
/// Its schema is `Protocol/schemas/console/cluster.v1.schema.json`, described in `Protocol/console.md`. Version 1
/// changes only additively, like the request protocol: a member may be added, never renamed, retyped or removed.
///
/// Every string that came from a peer (service names, worker names and ids, request ids in incidents) is the
/// peer's text, bounded in length and otherwise untouched: whoever shows it escapes it (the page inserts it as
/// text, `tally top` through `TerminalText`).
///
/// Only this module builds one (``ClusterDocumentBuilder``), with the members' memberwise initializers; other
/// modules decode and read it.
package struct ClusterDocument: Codable, Sendable, Hashable {
    /// The document's format version: 1.
    package var version: Int
    /// When the broker built it (RFC 3339, UTC).
    package var generatedAt: String
    /// How often at most the broker builds it: polling faster returns the same document.
    package var refreshSeconds: Double
    package var broker: BrokerSummary
    /// Every service the broker knows (queued requests or registered workers), by name; at most
    /// `ClusterDocument.maximumServices`.
    package var services: [ServiceSummary]
    /// Services left out past that bound.
    package var servicesNotListed: Int
    /// What went wrong lately, newest first, repeats counted on one entry; at most `IncidentLog.capacity`.
    package var incidents: [Incident]
    /// Requests per second and p99 of every service together, over the last 15 minutes.
    package var series: RateSeries

    enum CodingKeys: String, CodingKey {
        case version
        case generatedAt = "generated_at"
        case refreshSeconds = "refresh_seconds"
        case broker, services
        case servicesNotListed = "services_not_listed"
        case incidents, series
    }

    /// Services listed at most: the broker's own bounds (256 served and 256 waiting).
    package static let maximumServices = 512
    /// Worker process rows listed at most, over all services.
    package static let maximumProcessRows = 1000
}

extension ClusterDocument {
    /// The broker process itself.
    package struct BrokerSummary: Codable, Sendable, Hashable {
        package var version: String
        /// When it started (RFC 3339, UTC), and the seconds since.
        package var startedAt: String
        package var uptimeSeconds: Double
        /// Whether CURVE encryption and authentication are on.
        package var curve: Bool
        /// Draining: no new requests taken (a graceful shutdown is under way).
        package var draining: Bool
        /// Connections of peers that are not registered workers: clients (and workers between connecting and
        /// READY). Open peer connections minus registered worker connections.
        package var clientConnections: Int
        /// Open transport connections of every peer, from the broker socket's monitor.
        package var peerConnections: Int
        /// Registered worker connections, over all services.
        package var workerConnections: Int

        enum CodingKeys: String, CodingKey {
            case version
            case startedAt = "started_at"
            case uptimeSeconds = "uptime_seconds"
            case curve, draining
            case clientConnections = "client_connections"
            case peerConnections = "peer_connections"
            case workerConnections = "worker_connections"
        }
    }
}
