import TallyGateway
import Testing

/// `Request-Timeout`: Tally's duration syntax, or a bare number of seconds as HTTP counts them.
@Suite struct RequestTimeoutTests {
    @Test(arguments: [
        ("2s", Duration.seconds(2)), ("250ms", .milliseconds(250)), ("1.5s", .milliseconds(1500)),
        ("1m30s", .seconds(90)), ("1h", .seconds(3600)), ("1h2m3s4ms", .milliseconds(3_723_004)),
        ("3", .seconds(3)), ("0.25", .milliseconds(250)), (" 2s ", .seconds(2)),
    ])
    func durationsAreRead(text: String, duration: Duration) {
        #expect(RequestTimeout.parse(Substring(text)) == duration)
    }

    @Test(arguments: [
        "", "soon", "0", "0s", "-1s", "2 s", "1s1m", "1s1s", "ms", "1x", "1.2.3s", "1e3",
        String(repeating: "9", count: 65),
    ])
    func otherTextIsRefused(text: String) {
        #expect(RequestTimeout.parse(Substring(text)) == nil)
    }
}
