import Foundation
import Testing

/// A params member's wire name is written once, in its schema: Swift reads and writes it through the types generated
/// from the schemas (their `CodingKeys` and direct reads), and hand-written code names it in an error through
/// `CodingKeys` too (`path + GoalChange.CodingKeys.effectiveDate`). It stands in hand-written Swift only where an
/// error's wording needs it (`give time_zone or utc_offset_minutes, not both`) or a help shows a request. These
/// tests count those lines for the names whose Swift names differ, so that a hand-written read or path of one
/// fails here, with the lines that have it.
@Suite struct HandWrittenWireNamesTests {
    static let names = [
        "effective_date", "week_starts_on", "goal_log", "utc_offset_minutes", "time_zone", "completed_at",
        "template_id",
    ]
    static let allowed = 6
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "Sources")

    /// The lines of the Swift files under `folder` that hold one of `names` outside comments, as `path:line: text`.
    static func lines(naming names: [String], under folder: URL) throws -> [String] {
        let files =
            FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
            .sorted { $0.path < $1.path } ?? []
        var found: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            var inBlockComment = false
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = codeOf(line, inBlockComment: &inBlockComment)
                guard names.contains(where: code.contains) else { continue }
                let path = file.path.dropFirst(folder.path.count + 1)
                found.append("\(path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        return found
    }

    /// What of `line` is not comment: a line comment (`//`, `///`) ends it, a block comment (`/* … */`) is left
    /// out, and may go on over lines. Quotes are not looked at: a `//` in a string literal ends the line too, which
    /// counts less, never more.
    static func codeOf(_ line: Substring, inBlockComment: inout Bool) -> String {
        var code = ""
        var rest = line[...]
        while !rest.isEmpty {
            if inBlockComment {
                guard let end = rest.range(of: "*/") else { return code }
                rest = rest[end.upperBound...]
                inBlockComment = false
            } else if let comment = rest.range(of: "//"),
                rest.range(of: "/*").map({ $0.lowerBound > comment.lowerBound }) ?? true
            {
                return code + rest[..<comment.lowerBound]
            } else if let start = rest.range(of: "/*") {
                code += rest[..<start.lowerBound]
                rest = rest[start.upperBound...]
                inBlockComment = true
            } else {
                return code + rest
            }
        }
        return code
    }

    @Test func wireNamesStandInHandWrittenSwiftOnlyWhereAnErrorNeedsThem() throws {
        let found = try Self.lines(naming: Self.names, under: Self.sources)
        let listing = found.joined(separator: "\n")
        #expect(
            found.count <= Self.allowed,
            "\(found.count) lines of Sources/ name a params member by its wire name (at most \(Self.allowed)):\n\(listing)"
        )
    }

    /// The count sees code, and only code: a name in a string or an expression counts, in a comment it does not.
    @Test func theCountSeesCodeAndNotComments() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "wire-names-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appending(path: "A"), withIntermediateDirectories: true)
        let text = """
            /// `goal_log` in a doc comment
            // time_zone in a comment
            let path = base + "goal_log"
            if key.is("time_zone") { read() }  // and utc_offset_minutes
            /* template_id
               completed_at */ let a = 1
            let b = 2 /* effective_date */ + 3
            let c = "week_starts_on" /* and */
            """
        try Data(text.utf8).write(to: folder.appending(path: "A/Sample.swift"))
        try Data("let d = \"time_zone\"".utf8).write(to: folder.appending(path: "A/Notes.txt"))
        let found = try Self.lines(naming: Self.names, under: folder)
        #expect(
            found == [
                "A/Sample.swift:3: let path = base + \"goal_log\"",
                "A/Sample.swift:4: if key.is(\"time_zone\") { read() }  // and utc_offset_minutes",
                "A/Sample.swift:8: let c = \"week_starts_on\" /* and */",
            ], "\(found)")
    }
}
