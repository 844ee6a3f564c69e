/// A read-only route that a process adds to its `--http` endpoint beside `/metrics`, `/livez` and `/readyz` (the
/// broker's console: its page and its JSON).
package struct MonitoringRoute: Sendable {
    /// What a route answers: status, headers and body.
    package struct Response: Sendable {
        package var status: Int
        package var headers: [String: String]
        package var body: [UInt8]

        package init(status: Int = 200, headers: [String: String], body: [UInt8]) {
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    /// The path, answered to GET only (`/`, `/console/v1/cluster.json`).
    package var path: String
    package var respond: @Sendable () async -> Response

    package init(path: String, respond: @escaping @Sendable () async -> Response) {
        self.path = path
        self.respond = respond
    }
}
