import Foundation
import TallyTesting

/// What a `tally-load --json` process reported: the client library's view of a run.
struct LoadReportReader: Sendable, CustomStringConvertible {
    var sent: Int
    /// Results and error answers.
    var answered: Int
    /// Results only.
    var succeeded: Int
    var unanswered: Int
    var errors: [String: Int]

    /// Starts `tally-load` against `brokers` with `arguments` (pacing, duration, mix) and `--json`.
    static func start(brokers: [String], arguments: [String]) throws -> ManagedProcess {
        let brokerArguments = brokers.flatMap { ["--broker", $0] }
        return try ManagedProcess(TallyBinaries.load, brokerArguments + arguments + ["--json"], name: "tally-load")
    }

    /// Waits for `process` to exit and reads its JSON report from standard output.
    static func read(_ process: ManagedProcess, timeout: Duration) async throws -> LoadReportReader {
        guard await process.waitForExit(timeout: timeout) != nil else {
            process.kill9()
            throw ProcessError("tally-load did not finish within \(timeout)")
        }
        // Standard output is collected asynchronously: wait for the report's last line.
        let complete = await eventually(timeout: .seconds(5)) { process.output.last == "}" }
        let text = process.output.joined(separator: "\n")
        guard complete, let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let tally = object["tally"] as? [String: Any]
        else { throw ProcessError("no report from tally-load: \(text)\n\(process.errorOutput.suffix(2000))") }
        return LoadReportReader(
            sent: tally["sent"] as? Int ?? -1, answered: tally["answered"] as? Int ?? -1,
            succeeded: tally["succeeded"] as? Int ?? -1, unanswered: tally["unanswered"] as? Int ?? -1,
            errors: tally["errors"] as? [String: Int] ?? [:])
    }

    var description: String {
        let byCode = errors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return "tally-load: sent \(sent), answered \(answered) (succeeded \(succeeded), errors: "
            + "\(byCode.isEmpty ? "none" : byCode)), without answer \(unanswered)"
    }
}
