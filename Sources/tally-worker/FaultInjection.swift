#if DEBUG
import Foundation
import TallyProtocol
import TallyWorker

/// `test.crash`: a method that kills the worker process computing it, for the poison-request tests.
///
/// - Important: compiled into debug builds only (`swift build`, which the tests run), and registered only when
///   `TALLY_TEST_FAULTS=crash-method` is set. A release build (`deploy/`, the container image) has no such method,
///   whatever its environment says.
enum TestCrash: TallyMethod {
    static let name = "test.crash"
    static let service = TallyService.system
    typealias Params = SystemPing.Params
    typealias Result = SystemPing.Params
}

extension MethodRegistry {
    /// Adds the fault-injection methods the environment asks for.
    mutating func registerTestFaults(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard environment["TALLY_TEST_FAULTS"]?.split(separator: ",").contains("crash-method") == true else { return }
        register(TestCrash.self) { _, context in
            fatalError("test.crash: request \(context.head.id) asked this worker to die (TALLY_TEST_FAULTS)")
        }
    }
}
#endif
