import Foundation
import Testing

@testable import TallyConsole

/// `tally top` prints peers' names: control sequences in them are shown, never obeyed.
@Suite struct TerminalTextTests {
    @Test(arguments: [
        ("tally.history", "tally.history"),
        ("\u{1B}[2J\u{1B}]0;owned\u{7}", "\\x1B[2J\\x1B]0;owned\\x07"),
        ("a\nb\rc\td\u{0}", "a\\x0Ab\\x0Dc\\x09d\\x00"),
        ("del\u{7F} csi\u{9B}31m", "del\\x7F csi\\x9B31m"),
        ("evil\u{202E}txt.exe\u{2066}", "evil\\u{202E}txt.exe\\u{2066}"),
        ("día/42 ✓ 漢字", "día/42 ✓ 漢字"),
    ])
    func controlCharactersAreShownAsEscapes(text: String, shown: String) {
        #expect(TerminalText.sanitized(text) == shown)
    }

    @Test func aCellIsCutWithAnEllipsis() {
        #expect(TerminalText.cell("abcdef", width: 4) == "abc…")
        #expect(TerminalText.cell("abc", width: 4) == "abc")
        #expect(TerminalText.cell("\u{1B}", width: 10) == "\\x1B")
    }

    @Test func theScreenEscapesEveryPeerStringAndFitsTheTerminal() throws {
        let hostile = "svc\u{1B}[31m"
        let document = ClusterDocument(
            version: 1, generatedAt: "2026-11-27T10:00:00.000Z", refreshSeconds: 1,
            broker: .init(
                version: "0.1.0", startedAt: "2026-11-27T09:00:00.000Z", uptimeSeconds: 3725, curve: false,
                draining: false, clientConnections: 2, peerConnections: 6, workerConnections: 4),
            services: [
                .init(
                    name: hostile, queued: 1, oldestWaitMilliseconds: 12.5, inFlight: 3, credit: 32, connections: 4,
                    workerProcesses: 2,
                    processes: [
                        .init(
                            name: "host\u{1B}]0;x\u{7}/1", id: "a", connections: 2, credit: 16, inFlight: 2,
                            served: 10, errors: 1, lastHeardMilliseconds: 800),
                        .init(
                            name: nil, id: "00ab", connections: 1, credit: 1, inFlight: 1, served: 5, errors: 0,
                            lastHeardMilliseconds: 12_000),
                    ],
                    processesNotListed: 0,
                    lastMinute: .init(
                        seconds: 60, requestsPerSecond: 1234.5,
                        errors: [.init(code: "bad\u{1B}code", count: 2)], p50Milliseconds: 1.5,
                        p99Milliseconds: 40))
            ], servicesNotListed: 0,
            incidents: [
                .init(
                    kind: "unavailable", service: nil, reason: "not_served", detail: "x\u{1B}[Hy: no worker", count: 3,
                    firstAt: "2026-11-27T09:59:00.000Z", lastAt: "2026-11-27T09:59:59.000Z")
            ], series: .init(stepSeconds: 5, points: []))
        let unbounded = TopScreen(width: nil, incidents: .max).lines([
            .init(address: "127.0.0.1:9100", outcome: .success(document)),
            .init(address: "127.0.0.1:9101", outcome: .failure(.noAnswer("cannot connect"))),
        ])
        let text = unbounded.joined(separator: "\n")
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(text)")
        #expect(text.contains("svc\\x1B[31m"))
        #expect(text.contains("host\\x1B]0;x\\x07/1"))
        #expect(text.contains("mdp 00ab"), "a process that names nothing shows its id")
        #expect(text.contains("1234"))
        #expect(text.contains("up 1h2m"))
        #expect(text.contains("127.0.0.1:9101: no answer (cannot connect)"))
        let narrow = TopScreen(width: 40, incidents: 5).lines([.init(address: "b", outcome: .success(document))])
        #expect(narrow.allSatisfy { $0.count <= 40 })
    }
}
