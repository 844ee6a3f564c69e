import Foundation
import TallyProtocol
import ZeroMQ

/// A bare DEALER speaking MDP frames directly: it can send what no well-behaved client would (wrong headers,
/// missing frames, broken bodies) and it sees every reply, including ones a `TallyClient` would silently drop
/// (a second answer to the same id).
///
/// - Important: its calls block; use it on its own thread (`onOwnThread`), never on the cooperative pool while
///   other tasks of the test must make progress.
final class RawMDPClient {
    let socket: Socket

    /// - Parameter receiveTimeout: how long `receive` waits before returning `nil`.
    init(context: Context, endpoint: String, receiveTimeout: Duration = .seconds(10)) throws {
        socket = try Socket(context, type: .dealer)
        try socket.set(.linger, .zero)
        try socket.set(.receiveTimeout, receiveTimeout)
        try socket.connect(endpoint)
    }

    deinit { socket.close() }

    /// Sends frames exactly as given.
    func send(_ frames: [Frame]) throws {
        _ = try socket.send(frames)
    }

    /// Sends a client request `"" MDPC01 service body`.
    func request(service: String, body: String) throws {
        try send(["", "MDPC01", Frame(service), Frame(body)])
    }

    /// The next message, or `nil` when none arrives within the receive timeout.
    func receive() throws -> [Frame]? {
        try socket.receive(maxFrames: 64)?.frames
    }

    /// A `system.ping` body with `id`, optionally with a deadline.
    static func ping(id: String, deadline: Date? = nil) -> String {
        guard let deadline else { return #"{"version":1,"id":"\#(id)","method":"system.ping"}"# }
        return #"{"version":1,"id":"\#(id)","method":"system.ping","deadline":"\#(rfc3339(deadline))"}"#
    }

    static func rfc3339(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}

/// A reply as a Tally client sees it: the service frame and the body's id and error code.
struct RawReply: Sendable, Hashable {
    var frames: [Frame]

    /// Whether this is a client reply (`"" MDPC01 service body…`).
    var isClientReply: Bool { frames.count >= 3 && frames[0].isEmpty && frames[1] == "MDPC01" }
    var service: String? { isClientReply ? frames[2].text : nil }
    var body: [UInt8] { isClientReply && frames.count > 3 ? frames[3].bytes : [] }
    var id: String? { EnvelopeScanner.id(in: body) }
    /// The error code, or `nil` for a result (or a body that is not a Tally response).
    var errorCode: String? { EnvelopeScanner.errorCode(in: body) }
    /// `"ok"` for a result, else the error code.
    var outcome: String {
        errorCode ?? (String(decoding: body, as: UTF8.self).contains(#""result""#) ? "ok" : "not-tally")
    }
    /// The error's `details.field`, when there is one.
    var errorField: String? { errorDetails?["field"] as? String }

    /// The error's `details.limit`, when there is one.
    var errorLimit: Int? { errorDetails?["limit"] as? Int }

    var errorDetails: [String: Any]? {
        let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
        return (object?["error"] as? [String: Any])?["details"] as? [String: Any]
    }
}
