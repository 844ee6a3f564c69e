import FlyingFox
import FlyingSocks
import Foundation
import Synchronization

/// A real OTLP/HTTP receiver for tests: an HTTP server on a free loopback port that accepts
/// `POST /v1/traces` with a JSON body, as an OpenTelemetry collector does, and keeps every span it was sent.
/// `status` lets a test play a receiver that refuses.
package final class OTLPReceiver: Sendable {
    private let server: HTTPServer
    private let task: Task<Void, Never>
    /// The accepted bodies.
    private let received = Mutex<[Data]>([])
    private let bodies = Mutex(0)
    private let status: HTTPStatusCode

    /// `http://127.0.0.1:PORT`, to pass as `--otlp-endpoint`.
    package let endpoint: String

    private init(server: HTTPServer, task: Task<Void, Never>, endpoint: String, status: HTTPStatusCode) {
        self.server = server
        self.task = task
        self.endpoint = endpoint
        self.status = status
    }

    /// Starts listening; `stop()` ends it.
    package static func start(refusing: Bool = false) async throws -> OTLPReceiver {
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), logger: .disabled)
        let task = Task<Void, Never> { _ = try? await server.run() }
        // A hang guard only: binding a loopback port is instant, but a starved machine may not run the task soon.
        try await server.waitUntilListening(timeout: 60)
        guard case .ip4(_, let port)? = await server.listeningAddress else { throw ProcessError("no port") }
        let receiver = OTLPReceiver(
            server: server, task: task, endpoint: "http://127.0.0.1:\(port)",
            status: refusing ? .serviceUnavailable : .ok)
        await server.appendRoute("POST /v1/traces") { [receiver] request in
            try await receiver.accept(request)
        }
        return receiver
    }

    private func accept(_ request: HTTPRequest) async throws -> HTTPResponse {
        let body = try await request.bodyData
        bodies.withLock { $0 += 1 }
        guard request.headers[.contentType] == "application/json",
            (try? JSONSerialization.jsonObject(with: body)) is [String: Any]
        else { return HTTPResponse(statusCode: .badRequest) }
        guard status == .ok else { return HTTPResponse(statusCode: status) }
        received.withLock { $0.append(body) }
        return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: Data("{}".utf8))
    }

    /// Every span received so far, each with its resource's `service.name` added as a member.
    package var spans: [[String: Any]] {
        var spans: [[String: Any]] = []
        for body in received.withLock({ $0 }) {
            let document = (try? JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:]
            for resource in document["resourceSpans"] as? [[String: Any]] ?? [] {
                let attributes = (resource["resource"] as? [String: Any])?["attributes"] as? [[String: Any]] ?? []
                let serviceName = attributes.first { $0["key"] as? String == "service.name" }
                    .flatMap { ($0["value"] as? [String: Any])?["stringValue"] as? String }
                for scope in resource["scopeSpans"] as? [[String: Any]] ?? [] {
                    for var span in scope["spans"] as? [[String: Any]] ?? [] {
                        span["service.name"] = serviceName
                        spans.append(span)
                    }
                }
            }
        }
        return spans
    }

    /// How many requests arrived, accepted or not.
    package var requestCount: Int { bodies.withLock { $0 } }

    package func stop() async {
        await server.stop(timeout: 1)
        task.cancel()
    }
}
