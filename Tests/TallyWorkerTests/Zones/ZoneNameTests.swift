import Foundation
import TallyProtocol
import Testing

/// `time_zone` takes every name the tz database gives a zone or a link, and nothing else (ZoneName).
@Suite struct ZoneNameTests {
    @Test func everyNameOfTheDatabaseIsAcceptedAndComputesInItsZone() {
        #expect(ZoneName.databaseNames.count > 590, "\(ZoneName.databaseNames.count) names")
        let refused = ZoneName.databaseNames.sorted().filter { ZoneName($0) == nil }
        #expect(refused.isEmpty, "names of the tz database Foundation does not resolve: \(refused)")
        // Links and zones without a slash, the ones a slash-only rule refused.
        for name in [
            "GB", "Japan", "Singapore", "Zulu", "Kwajalein", "Iceland", "EST5EDT", "CET", "UTC", "GMT",
            "US/Eastern", "Asia/Calcutta", "Etc/GMT+5", "Etc/GMT-14",
        ] {
            #expect(ZoneName(name)?.identifier == name, "\(name)")
        }
    }

    @Test func namesTheDatabaseDoesNotGiveAreRefused() {
        for name in [
            "PST", "BST", "IST", "AET", "GMT+5", "GMT-03:00", "UTC+1", "Mars/Olympus_Mons", "europe/berlin",
            "Europe/Berlin ", " UTC", "", "Europe", "Europe/", "/Berlin", "Europe//Berlin", "Local",
        ] {
            #expect(ZoneName(name) == nil, "'\(name)'")
        }
        // Foundation resolves names of its own (ICU's aliases); only the database's are Tally's.
        let foundationOnly = TimeZone.knownTimeZoneIdentifiers.filter { !ZoneName.databaseNames.contains($0) }
        #expect(foundationOnly.allSatisfy { ZoneName($0) == nil }, "\(foundationOnly)")
    }

    /// The list is the one of the tz release Foundation computes with, and, where the host's zoneinfo is of that
    /// release, the very names of its tzdata.zi (regenerate with scripts/zone-names when they part).
    @Test func theListIsTheDatabaseFoundationComputesWith() throws {
        #expect(
            ZoneName.databaseRelease == TimeZone.timeZoneDataVersion,
            "the names are of tz \(ZoneName.databaseRelease), Foundation computes with \(TimeZone.timeZoneDataVersion)")
        guard ZonePeerTests.systemVersion == ZoneName.databaseRelease,
            let text = try? String(contentsOfFile: "\(ZonePeerTests.zoneinfo)/tzdata.zi", encoding: .utf8)
        else { return }
        var names = Set<String>()
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.first == "Z", fields.count > 1 { names.insert(String(fields[1])) }
            if fields.first == "L", fields.count > 2 { names.insert(String(fields[2])) }
        }
        #expect(names == ZoneName.databaseNames, "scripts/zone-names: the host's tzdata.zi names other zones")
    }

    /// A link computes exactly as the zone it names: the same answer, whatever name the backend stored.
    @Test(arguments: [("GB", "Europe/London"), ("Asia/Calcutta", "Asia/Kolkata"), ("Japan", "Asia/Tokyo")])
    func aLinkAnswersAsItsZone(link: String, zone: String) throws {
        let answers = try [link, zone].map { name in
            try StreakMethodTests().respond(
                #""time_zone":"\#(name)","now":"2026-03-29T23:30:00Z","goal_log":[{"effective_date":"2026-01-01","goal":5000}],"records":[{"date":"2026-03-28","steps":6000},{"date":"2026-03-29","steps":7000}]"#
            )
        }
        #expect(NSDictionary(dictionary: answers[0]) == NSDictionary(dictionary: answers[1]))
        #expect(answers[0]["result"] != nil, "\(answers[0])")
    }
}
