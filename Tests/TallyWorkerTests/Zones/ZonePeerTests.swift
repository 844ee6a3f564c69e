import Foundation
import Logging
import PropertyBased
import TallyCalendar
import TallyCore
import TallyTesting
import TallyWorker
import Testing

/// Tally's days and hours, through the dispatcher, against an independent implementation of the zone arithmetic:
/// Python's `zoneinfo` reading the system tz database (`zone_peer.py`), on thousands of random cases.
///
/// Like with like. Foundation on Linux does not read /usr/share/zoneinfo: its `TimeZone` is ICU's, with ICU's
/// own compiled copy of the tz database (`TimeZone.timeZoneDataVersion`). The cross-check runs only when both say
/// the same release (on this machine both are 2025b). Even then the two builds differ: Debian compiles its
/// zoneinfo with the tz project's `backzone` file, which gives names such as Africa/Addis_Ababa or Europe/Oslo
/// pre-1970 histories of their own, while ICU makes them links to a main-data zone (Africa/Nairobi,
/// Europe/Berlin). So the cases are drawn from the zones of `zone1970.tab`, the main data's own zones, where the
/// two builds agree transition for transition (95 of the other 131 names differ before 1970).
@Suite struct ZonePeerTests {
    static let zoneinfo = "/usr/share/zoneinfo"

    /// The release the system's zoneinfo was built from (`# version 2025b`), or `nil` without one.
    static let systemVersion: String? = {
        guard let text = try? String(contentsOfFile: "\(zoneinfo)/tzdata.zi", encoding: .utf8) else { return nil }
        return text.split(separator: "\n").first?.split(separator: " ").last.map(String.init)
    }()

    static var versionsMatch: Bool { systemVersion == TimeZone.timeZoneDataVersion }

    /// The zones of the main data that Foundation knows too.
    static let comparableZones: [String] = {
        guard let table = try? String(contentsOfFile: "\(zoneinfo)/zone1970.tab", encoding: .utf8) else { return [] }
        let known = Set(TimeZone.knownTimeZoneIdentifiers)
        return table.split(separator: "\n").filter { !$0.hasPrefix("#") }
            .compactMap { $0.split(separator: "\t").dropFirst(2).first.map(String.init) }
            .filter(known.contains).sorted()
    }()

    /// One case for the peer: a zone, a selected day, and `now` on that day or up to about two days later.
    struct PeerCase: Codable {
        let zone: String
        let day: Int
        let now: Double
    }

    /// The peer's answer for one case.
    struct PeerAnswer: Decodable {
        let start: Double?
        let end: Double?
        let hours: [[Double]]?
        let today: Int?
        let skipped: String?
    }

    struct PeerReply: Decodable {
        let version: String
        let answers: [PeerAnswer]
    }

    /// Runs `zone_peer.py` on `cases`.
    static func askPeer(_ cases: [PeerCase]) throws -> PeerReply {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("zone_peer.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let request = try JSONEncoder().encode(["cases": cases])
        // The peer reads all of its input before it writes: write, close, then read to the end.
        DispatchQueue.global().async {
            input.fileHandleForWriting.write(request)
            try? input.fileHandleForWriting.close()
        }
        let reply = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try JSONDecoder().decode(PeerReply.self, from: reply)
    }

    /// Cases of random zones: half on random dates from 1800 to 2200, half on the date of a transition (the first
    /// after a random instant of 1840...2040) or the date before it.
    static func cases(count: Int, using random: inout Xoshiro) -> [PeerCase] {
        let span = ZoneSweepSettings(firstYear: 1840, lastYear: 2040).span
        let days = ZoneCase.dayNumber(year: 1800)...ZoneCase.dayNumber(year: 2200)
        return (0..<count).map { index in
            let zone = comparableZones.randomElement(using: &random)!
            var day = Int.random(in: days, using: &random)
            if index % 2 == 1 {
                let from = Double.random(in: span.start...span.end, using: &random).rounded(.down)
                let oracle = ZoneOracle(TimeZone(identifier: zone)!)
                if let transition = oracle.transitions(from: from, to: from + 4 * 366 * 86_400).first {
                    day = oracle.wallClock(at: transition).dayNumber - Int.random(in: 0...1, using: &random)
                }
            }
            // At least 18 hours after the day's midnight read as UTC: on that day or later in every zone.
            let later = Int.random(in: 18 * 3600...(2 * 86_400 + 18 * 3600), using: &random)
            let now = Double(day * 86_400 + later)
            return PeerCase(zone: zone, day: day, now: now)
        }
    }

    @Test(.enabled(if: versionsMatch, "Foundation's (ICU's) tz data and /usr/share/zoneinfo are different releases"))
    func daysAndHoursAgreeWithZoneinfo() async throws {
        #expect(Self.comparableZones.count > 250, "zone1970.tab lists \(Self.comparableZones.count) known zones")
        let count = ZoneSweepSettings.current.peerCases
        // One property run over a whole batch: the peer is one process per batch, and a failure names the seed.
        await propertyCheck(count: 1, input: Gen.int(in: 0...Int.max)) { seed in
            var random = Xoshiro(seed: (UInt64(seed), 1, 2, 3))
            let cases = Self.cases(count: count, using: &random)
            // The peer runs for seconds: waited for on a thread of its own, not on the cooperative pool.
            let reply = try await onOwnThread { try Self.askPeer(cases) }
            #expect(reply.version == TimeZone.timeZoneDataVersion)
            #expect(reply.answers.count == cases.count)
            // Thousands of dispatches: off the pool too.
            let disagreements = try await onOwnThread {
                var disagreements: [String] = []
                for (peerCase, peer) in zip(cases, reply.answers) {
                    if let skipped = peer.skipped {
                        disagreements.append("\(peerCase.zone): the peer skipped it: \(skipped)"); continue
                    }
                    disagreements += Self.compare(peerCase, peer)
                }
                return disagreements
            }
            let first = disagreements.prefix(12).joined(separator: "\n")
            #expect(
                disagreements.isEmpty,
                Comment(rawValue: "\(disagreements.count) of \(cases.count) cases disagree (seed \(seed)):\n\(first)"))
        }
    }

    /// Sends `history.dashboard` daily for the case and compares its `as_of` and hours with the peer's.
    static func compare(_ peerCase: PeerCase, _ peer: PeerAnswer) -> [String] {
        let date = LocalDate(dayNumber: peerCase.day)
        let now = RFC3339.format(Instant(Date(timeIntervalSince1970: peerCase.now)), offset: 0)
        let params =
            #""time_zone":"\#(peerCase.zone)","now":"\#(now)","date":"\#(date)","#
            + #""goal_log":[{"effective_date":"0001-01-01","goal":9000}],"records":[]"#
        let body = #"{"version":1,"id":"peer","method":"history.dashboard","params":{\#(params)}}"#
        let reply = ZoneCaseCheck.dispatcher.respond(
            to: Array(body.utf8), service: "tally.history", logger: Logger(label: "peer"))
        let what = "\(peerCase.zone) \(date) now \(now)"
        guard let response = try? JSONSerialization.jsonObject(with: Data(reply.bytes)) as? [String: Any],
            let result = response["result"] as? [String: Any], let hours = result["hours"] as? [[String: Any]]
        else { return ["\(what): no daily chart: \(String(decoding: reply.bytes, as: UTF8.self))"] }
        var problems: [String] = []
        if result["as_of"] as? String != peer.today.map({ LocalDate(dayNumber: $0).description }) {
            problems.append("\(what): as_of \(result["as_of"] ?? "-"), zoneinfo's today is day \(peer.today ?? 0)")
        }
        let tally = hours.map { hour -> [Double] in
            [
                (try? RFC3339.parse(hour["start"] as? String ?? "")).map { Double($0.instant.secondsSince1970) }
                    ?? .nan,
                Double(hour["hour"] as? Int ?? -1),
            ]
        }
        if tally != peer.hours ?? [] {
            problems.append(
                "\(what): Tally's hours \(hours.first?["start"] ?? "-") … (\(hours.count)) differ from "
                    + "zoneinfo's \(peer.start ?? 0)…\(peer.end ?? 0) (\(peer.hours?.count ?? 0))")
        }
        if let last = hours.last,
            (try? RFC3339.parse(last["end"] as? String ?? "")).map({ Double($0.instant.secondsSince1970) })
                != (peer.hours?.isEmpty == false ? peer.end : nil)
        {
            problems.append("\(what): the last hour ends at \(last["end"] ?? "-"), zoneinfo's day at \(peer.end ?? 0)")
        }
        return problems
    }
}
