import Foundation
import Testing

@testable import WireTypeGenerator

/// The method table and the client's typed calls, generated from the methods' schemas: a method is declared by its
/// `methods/NAME.params.schema.json` and `.result` twin, and its Swift names follow from its wire name.
@Suite struct MethodTableGenerationTests {
    static let schemas = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "Protocol/schemas")

    /// The methods of a schema folder made of `files` (path → JSON text), or the generator's refusal.
    static func methods(_ files: [String: String]) throws -> [ProtocolMethod] {
        try ProtocolMethod.all(in: try schemaIndex(of: files))
    }

    @Test func theProtocolsMethodsInTheTablesOrder() throws {
        let methods = try ProtocolMethod.all(in: try SchemaIndex(root: Self.schemas))
        #expect(
            methods.map(\.name) == [
                "history.dashboard", "history.month", "history.months", "streak.summary", "workout.calendar",
                "workout.day", "workout.detail", "system.describe", "system.ping",
            ])
        let month = try #require(methods.first { $0.name == "history.month" })
        #expect(month.typeName == "HistoryMonth" && month.callName == "historyMonth")
        #expect(month.service == "tally.history" && !month.isSystem)
        #expect(month.resultDescription?.hasPrefix("One month") == true)

        let table = SwiftWriter.methodTable(methods)
        #expect(table.contains("        WorkoutDetail.self,\n        SystemDescribe.self,\n"), "\(table)")
        let calls = SwiftWriter.clientCalls(methods)
        #expect(calls.contains("public func workoutDetail(\n"), "\(calls)")
        #expect(
            calls.contains(
                "WorkoutDetail.self, params, timeout: timeout, deadline: deadline, retries: retries,\n"
                    + "            trace: trace)"), "\(calls)")
        #expect(!calls.contains("func systemPing"), "system methods keep their hand-written calls (service given)")
    }

    @Test func aNewSchemaIsANewMethodWithItsNames() throws {
        let methods = try Self.methods([
            "methods/sleep.night_summary.params.schema.json": #"{"description": "A night.", "type": "object"}"#,
            "methods/sleep.night_summary.result.schema.json": #"{"type": "object"}"#,
            "methods/sleep.night_summary.params.json": #"{"not": "a schema file"}"#,
        ])
        #expect(methods.count == 1)
        #expect(methods.first?.typeName == "SleepNightSummary" && methods.first?.callName == "sleepNightSummary")
        #expect(methods.first?.paramsDescription == "A night." && methods.first?.resultDescription == nil)
        let calls = SwiftWriter.clientCalls(methods)
        #expect(calls.contains("/// `sleep.night_summary` on `tally.sleep`.\n    ///\n    /// Params: A night.\n"))
    }

    @Test func paramsWithoutAResultAreRefusedNamingTheMissingFile() {
        do {
            _ = try Self.methods(["methods/sleep.night.params.schema.json": #"{"type": "object"}"#])
            Issue.record("a method without its result schema must be refused")
        } catch {
            #expect("\(error)".contains("methods/sleep.night.result.schema.json"), "\(error)")
        }
    }
}
