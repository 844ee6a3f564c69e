import TallyJSONCoding
import TallyProtocol
import TallyWorker

/// libFuzzer entry point: the first byte picks a method of the table (`TallyMethods.v1`, by position), the rest is
/// a params document. Whatever the direct read (`JSONDirectDecodable`) accepts, the standard decoder must decode to
/// the same value: a direct read may give up on anything, but never accept what the standard decoder refuses, nor
/// read another value. And whatever a selective method's read (`SelectiveMethod.select`) reads, the whole params
/// answer alike. The seeds in Fuzz/Corpus/FuzzDirectDecoding are named after the method their first byte picks
/// (`MethodCompletenessTests` holds them to the table).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDirectDecoding(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let document = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let method = TallyMethods.v1[Int(data[0]) % TallyMethods.v1.count]
    check(method, document)
    if let selective = method as? any SelectiveMethod.Type { checkSelection(selective, document) }
    return 0
}

/// The direct read of `method`'s params against the standard decoder.
func check(_ method: any TallyMethod.Type, _ document: [UInt8]) {
    check(paramsType(of: method), document)
}

/// The params type of `method`, which every method's generated params read directly.
func paramsType<M: TallyMethod>(of _: M.Type) -> any (JSONDirectDecodable & Decodable & Equatable).Type {
    guard let type = M.Params.self as? any (JSONDirectDecodable & Decodable & Equatable).Type else {
        preconditionFailure("\(M.name): its params are not read directly")
    }
    return type
}

func check<Params: JSONDirectDecodable & Decodable & Equatable>(_ type: Params.Type, _ document: [UInt8]) {
    guard let direct = JSONCursor.read(document, maxListElements: 500, { Params(direct: &$0) }) else { return }
    guard let standard = try? TallyJSONDecoder().decode(Params.self, from: document) else {
        preconditionFailure(
            "read directly, refused by the standard decoder: \(String(decoding: document, as: UTF8.self))")
    }
    precondition(direct == standard, "read directly to another value: \(String(decoding: document, as: UTF8.self))")
}

/// The limits the selection is read under: small, so that the fuzzer reaches them.
let limits = RequestLimits(maxListElements: 8)

func checkSelection<M: SelectiveMethod>(_ method: M.Type, _ document: [UInt8]) {
    guard
        let selection = JSONCursor.read(
            document, maxListElements: limits.maxListElements, { M.select(&$0, limits: limits) })
    else { return }
    guard let params = try? TallyJSONDecoder().decode(M.Params.self, from: document) else {
        preconditionFailure("selected, refused by the standard decoder: \(String(decoding: document, as: UTF8.self))")
    }
    let selected = Result { () throws(TallyError) in try M.result(for: selection, limits: limits) }
    let whole = Result { () throws(TallyError) in try M.result(for: params, limits: limits) }
    precondition(same(selected, whole), "selected to another answer: \(String(decoding: document, as: UTF8.self))")
}

/// Whether two answers are one: results by their `Hashable` conformance (every result type has one), errors by
/// theirs.
func same<Value>(_ left: Result<Value, TallyError>, _ right: Result<Value, TallyError>) -> Bool {
    switch (left, right) {
    case (.success(let left), .success(let right)):
        guard let left = left as? any Hashable, let right = right as? any Hashable else { return false }
        return AnyHashable(left) == AnyHashable(right)
    case (.failure(let left), .failure(let right)): return left == right
    default: return false
    }
}
