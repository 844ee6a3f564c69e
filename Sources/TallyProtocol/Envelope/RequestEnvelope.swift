/// A whole request as a client sends it: the envelope with typed params.
public struct RequestEnvelope<Params: Encodable & Sendable>: Encodable, Sendable {
    public var head: RequestHead
    public var params: Params

    public init(head: RequestHead, params: Params) {
        self.head = head
        self.params = params
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: RequestHead.CodingKeys.self)
        try container.encode(head.version, forKey: .version)
        try container.encode(head.id, forKey: .id)
        try container.encode(head.method, forKey: .method)
        try container.encode(params, forKey: .params)
        try container.encodeIfPresent(head.deadline, forKey: .deadline)
        try container.encodeIfPresent(head.trace, forKey: .trace)
    }
}

/// Decodes a request in one pass: the envelope first, then the params with a decoder chosen by the method name.
///
/// The params decoder is passed in `userInfo[.paramsDecoding]` because the params' type is only known after
/// the `method` field is read; decoding everything in one pass keeps a large request to a single parse.
public struct IncomingRequest: Decodable, Sendable {
    public let head: RequestHead
    public let params: any Sendable

    /// Chooses and runs the params decoder for a method.
    public typealias ParamsDecoding = @Sendable (_ method: String, _ params: any Decoder) throws -> any Sendable

    public init(from decoder: any Decoder) throws {
        let container: KeyedDecodingContainer<RequestHead.CodingKeys>
        do {
            container = try decoder.container(keyedBy: RequestHead.CodingKeys.self)
        } catch {
            throw RequestFailure(id: nil, error: TallyError(.invalidRequest, "the request must be a JSON object"))
        }
        let head: RequestHead
        do {
            head = try RequestHead(from: container)
        } catch {
            throw RequestFailure(id: Self.bestEffortID(container), error: error)
        }
        guard let decodeParams = decoder.userInfo[.paramsDecoding] as? ParamsDecoding else {
            throw RequestFailure(id: head.id, error: TallyError(.internal, "no params decoder configured"))
        }
        do {
            self.params = try decodeParams(head.method, try container.superDecoder(forKey: .params))
        } catch let error as TallyError {
            throw RequestFailure(id: head.id, error: error, method: error.code == .unknownMethod ? nil : head.method)
        } catch let error as JSONDecodingError {
            throw RequestFailure(id: head.id, error: TallyError(decoding: error), method: head.method)
        } catch let error as DecodingError {
            throw RequestFailure(
                id: head.id, error: TallyError(decoding: JSONDecodingError(error)), method: head.method)
        } catch {
            throw RequestFailure(
                id: head.id, error: TallyError(.internal, "params could not be decoded"), method: head.method)
        }
        self.head = head
    }

    private static func bestEffortID(_ container: KeyedDecodingContainer<RequestHead.CodingKeys>) -> String? {
        guard let id = try? container.decodeIfPresent(String.self, forKey: .id),
            !id.isEmpty, id.count <= RequestHead.maximumIDLength
        else { return nil }
        return id
    }
}

extension CodingUserInfoKey {
    /// Where `IncomingRequest` finds its `ParamsDecoding`.
    public static let paramsDecoding = CodingUserInfoKey(rawValue: "tally.paramsDecoding")!
}
