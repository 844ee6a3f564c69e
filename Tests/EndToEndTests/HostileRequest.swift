import Foundation
import ZeroMQ

/// One malformed message for the hostile-input table and what the protocol documents for it.
struct HostileRequest: Sendable, CustomStringConvertible {
    /// What Tally does with such a message (Protocol/README.md, Protocol/transport.md).
    enum Expectation: Sendable, Hashable, CustomStringConvertible {
        /// A v1 error response with this code and, when given, this `details.field`.
        case error(String, field: String? = nil)
        /// A v1 result: the oddity is allowed by the spec (unknown members, `-0`, a BOM…).
        case result
        /// No answer: logged and dropped by the broker.
        case dropped
        /// The broker answers a worker command from a peer it does not know with DISCONNECT (RFC 7).
        case workerDisconnect
        /// An MMI status (`200`, `404`, `501`).
        case mmi(String)
        /// libzmq closes the connection: a frame over `ZMQ_MAXMSGSIZE` (16 MiB).
        case connectionDropped

        var description: String {
            switch self {
            case .error(let code, let field): field.map { "\(code) at \($0)" } ?? code
            case .result: "a result"
            case .dropped: "dropped"
            case .workerDisconnect: "DISCONNECT"
            case .mmi(let status): "MMI \(status)"
            case .connectionDropped: "connection dropped"
            }
        }
    }

    var name: String
    /// Frames sent on a fresh DEALER, exactly as given.
    var frames: [Frame]
    var expected: Expectation

    /// The service a control request should use so that its answer queues behind this message's.
    var service: String {
        guard frames.count > 2, frames[1] == "MDPC01", let name = frames[2].text, name.hasPrefix("tally.") else {
            return "tally.history"
        }
        return ["tally.history", "tally.streak", "tally.workout"].contains(name) ? name : "tally.history"
    }

    var description: String { name }

    /// A client request with a text body.
    static func body(_ name: String, _ text: String, service: String = "tally.history", _ expected: Expectation) -> Self
    {
        HostileRequest(name: name, frames: ["", "MDPC01", Frame(service), Frame(text)], expected: expected)
    }

    /// A client request with a body of raw bytes.
    static func bytes(
        _ name: String, _ bytes: [UInt8], service: String = "tally.history", _ expected: Expectation
    )
        -> Self
    {
        HostileRequest(name: name, frames: ["", "MDPC01", Frame(service), Frame(bytes)], expected: expected)
    }

    /// Any frames.
    static func frames(_ name: String, _ frames: [Frame], _ expected: Expectation) -> Self {
        HostileRequest(name: name, frames: frames, expected: expected)
    }
}
