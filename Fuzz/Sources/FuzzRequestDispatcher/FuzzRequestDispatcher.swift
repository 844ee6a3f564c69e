import Foundation
import Logging
import TallyProtocol
import TallyWorker

/// Every Tally method, as a worker serves them, with small list limits so the fuzzer reaches them.
let dispatcher = MethodRegistry.allMethods(identity: WorkerIdentity(name: "fuzz/1", version: "0.0.0-fuzz"))
    .dispatcher(limits: RequestLimits(maxBodyBytes: 64 << 10, maxListElements: 500))
let logger = Logger(label: "fuzz") { _ in SwiftLogNoOpLogHandler() }
let services = ["tally.history", "tally.streak", "tally.workout"]

/// libFuzzer entry point: the input is a request body. Whatever it holds, the dispatcher must answer (never
/// trap) with one v1 response: a JSON object with `"version": 1` and exactly one of `result` and `error`, an
/// error carrying a non-empty code.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestDispatcher(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    let service = targetService(for: body)
    let now = Instant(secondsSince1970: 1_780_000_000)
    let response = dispatcher.respond(to: body, service: service, now: now, logger: logger)
    guard let object = try? JSONSerialization.jsonObject(with: Data(response.bytes)) as? [String: Any] else {
        preconditionFailure("the response is not a JSON object: \(String(decoding: response.bytes, as: UTF8.self))")
    }
    precondition(object["version"] as? Int == 1, "the response has no version 1")
    precondition((object["result"] == nil) != (object["error"] == nil), "exactly one of result and error")
    if let error = object["error"] as? [String: Any] {
        precondition((error["code"] as? String)?.isEmpty == false, "an error without a code")
        precondition(response.errorCode?.rawValue == error["code"] as? String, "metrics would count another code")
    }
    return 0
}

/// The service whose methods the body names, so that mutations of valid requests reach the methods; any service
/// for a body that names none.
func targetService(for body: [UInt8]) -> String {
    let text = String(decoding: body.prefix(4096), as: UTF8.self)
    for area in ["streak", "workout", "history"] where text.contains("\"\(area).") {
        return "tally.\(area)"
    }
    return services[body.count % services.count]
}
