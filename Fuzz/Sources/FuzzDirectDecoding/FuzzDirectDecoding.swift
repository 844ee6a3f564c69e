import TallyJSONCoding
import TallyProtocol
import TallyWorker

/// libFuzzer entry point: the first byte picks a method's params type, the rest is a params document. Whatever
/// the direct read (`JSONDirectDecodable`) accepts, the standard decoder must decode to the same value: a direct
/// read may give up on anything, but never accept what the standard decoder refuses, nor read another value. And
/// whatever the workout methods' selective reads (`SelectiveMethod.select`) read, the whole params answer alike.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDirectDecoding(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let document = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch data[0] % 8 {
    case 0: check(StreakSummary.Params.self, document)
    case 1: check(HistoryMonth.Params.self, document)
    case 2: check(HistoryMonths.Params.self, document)
    case 3: check(HistoryDashboard.Params.self, document)
    case 4:
        check(WorkoutDay.Params.self, document)
        checkSelection(WorkoutDay.self, document)
    case 5:
        check(WorkoutCalendar.Params.self, document)
        checkSelection(WorkoutCalendar.self, document)
    case 6:
        check(WorkoutDetail.Params.self, document)
        checkSelection(WorkoutDetail.self, document)
    default: check(SystemPing.Params.self, document)
    }
    return 0
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

func checkSelection<M: SelectiveMethod>(_ method: M.Type, _ document: [UInt8]) where M.Result: Equatable {
    guard
        let selection = JSONCursor.read(
            document, maxListElements: limits.maxListElements, { M.select(&$0, limits: limits) })
    else { return }
    guard let params = try? TallyJSONDecoder().decode(M.Params.self, from: document) else {
        preconditionFailure("selected, refused by the standard decoder: \(String(decoding: document, as: UTF8.self))")
    }
    let selected = Result { () throws(TallyError) in try M.result(for: selection, limits: limits) }
    let whole = Result { () throws(TallyError) in try M.result(for: params, limits: limits) }
    precondition(selected == whole, "selected to another answer: \(String(decoding: document, as: UTF8.self))")
}
