/// A read-only route that a process adds to its `--http` endpoint beside `/metrics`, `/livez` and `/readyz` (the
/// broker's console: its page and its JSON).
public struct MonitoringRoute: Sendable {
    /// What a route answers: status, headers and body.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: [UInt8]

        public init(status: Int = 200, headers: [String: String], body: [UInt8]) {
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    /// The path, answered to GET only (`/`, `/console/v1/cluster.json`).
    public var path: String
    public var respond: @Sendable () async -> Response

    public init(path: String, respond: @escaping @Sendable () async -> Response) {
        self.path = path
        self.respond = respond
    }
}
