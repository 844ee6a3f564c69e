import TallyJSONCoding

/// A response: the version, the request's id (null when the request had none that could be read), and either
/// `result` or `error`.
public struct ResponseEnvelope<Result: Codable & Sendable>: Codable, Sendable {
    /// The protocol version the response is written in: 1.
    public var version: Int
    /// The request's id; `nil` (`null` on the wire) when the request's id could not be read.
    public var id: String?
    /// The method's result (`result` on the wire) or the error (`error`): exactly one of the two.
    public var outcome: Swift.Result<Result, TallyError>

    /// The response to the request `id` with `outcome`, in this build's protocol version unless `version` says
    /// otherwise.
    public init(id: String?, outcome: Swift.Result<Result, TallyError>, version: Int = ProtocolVersion.current) {
        self.version = version
        self.id = id
        self.outcome = outcome
    }

    enum CodingKeys: String, CodingKey {
        case version, id, result, error
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        id = try container.decodeIfPresent(String.self, forKey: .id)
        if let error = try container.decodeIfPresent(TallyError.self, forKey: .error) {
            outcome = .failure(error)
        } else {
            outcome = .success(try container.decode(Result.self, forKey: .result))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(id, forKey: .id)
        switch outcome {
        case .success(let result): try container.encode(result, forKey: .result)
        case .failure(let error): try container.encode(error, forKey: .error)
        }
    }
}

extension ResponseEnvelope: JSONFastEncodable where Result: JSONFastEncodable {
    /// The envelope written straight to the output, as `encode(to:)` writes it: a worker answers every request of
    /// a method whose result writes itself (`system.ping`, the health check) without Codable's containers.
    @usableFromInline package func writeMembers(to object: inout JSONObjectWriter) throws {
        object.int("version", version)
        object.string("id", id)
        switch outcome {
        case .success(let result): try object.object("result", result)
        case .failure(let error): try object.encodable("error", error)
        }
    }
}

/// The result type of an error response whose method is unknown: it never has a result.
public struct NoResult: Codable, Sendable, Hashable {}
