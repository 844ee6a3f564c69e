import TallyProtocol

/// A request body prepared once and stamped with a fresh id per send, so that generating load costs a few byte
/// copies rather than a JSON encoding.
package struct RequestTemplate: Sendable {
    /// The MDP service.
    package let service: String
    /// The method, for reports.
    package let method: String
    /// A label such as `streak.summary@1y`: the report's row.
    package let label: String
    private let prefix: [UInt8]
    private let suffix: [UInt8]

    /// A v1 request of `method` with `params`.
    /// - Parameters:
    ///   - params: the JSON of the params object.
    package init(service: String, method: String, label: String, params: [UInt8]) {
        self.service = service
        self.method = method
        self.label = label
        // The id goes first: the client finds it with `EnvelopeScanner` on every send, and after the params it had
        // to skip the whole body (27 KB for a year of records), which cost the load tool CPU that the measured
        // cluster shares.
        prefix = Array(#"{"version":1,"id":""#.utf8)
        suffix =
            Array(#"","method":""#.utf8) + Array(method.utf8) + Array(#"","params":"#.utf8) + params
            + [UInt8(ascii: "}")]
    }

    /// An envelope as someone wrote it (a Protocol example, captured traffic), sent as it is but for its id.
    /// - Parameters:
    ///   - members: the envelope's members other than `id`, as JSON text without the braces
    ///     (`"version":1,"method":"system.ping"`), possibly empty.
    package init(service: String, method: String, label: String, members: [UInt8]) {
        self.service = service
        self.method = method
        self.label = label
        prefix = Array(#"{"id":""#.utf8)
        suffix = [UInt8(ascii: "\"")] + (members.isEmpty ? [] : [UInt8(ascii: ",")] + members) + [UInt8(ascii: "}")]
    }

    /// The request body with `id`.
    package func body(id: String) -> [UInt8] {
        var bytes = prefix
        bytes.reserveCapacity(prefix.count + id.utf8.count + suffix.count)
        bytes.append(contentsOf: id.utf8)
        bytes.append(contentsOf: suffix)
        return bytes
    }

    /// Bytes of a body (with a typical id).
    package var size: Int { prefix.count + suffix.count + 12 }
}
