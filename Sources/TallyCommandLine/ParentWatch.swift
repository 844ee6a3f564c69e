import Foundation

/// Ends the process when the process that started it is gone, if asked to by `TALLY_PARENT_PID`.
///
/// Test harnesses and local scripts start brokers and workers as child processes. If the harness dies without
/// stopping them (a crash, `kill -9`), the children would run on, heartbeating and holding ports, until someone
/// finds them. With `TALLY_PARENT_PID` set to the starting process's pid, the process looks at its parent twice a
/// second and, once it has been re-parented, sends itself SIGTERM: the usual graceful shutdown. (The kernel's
/// `PR_SET_PDEATHSIG` is no substitute: it fires when the parent *thread* that started the child ends, and the
/// harness's threads come and go.)
package enum ParentWatch {
    package static let environmentVariable = "TALLY_PARENT_PID"

    /// Starts watching if the environment names a parent; returns whether it did.
    @discardableResult
    package static func start(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard let text = environment[environmentVariable], let parent = Int32(text), parent > 1 else { return false }
        Task.detached {
            while getppid() == parent {
                try? await Task.sleep(for: .milliseconds(500))
            }
            kill(getpid(), SIGTERM)
        }
        return true
    }
}
