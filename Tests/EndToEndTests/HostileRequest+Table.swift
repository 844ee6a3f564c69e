import Foundation
import ZeroMQ

/// The table: transport frames first, then JSON bodies. Names say what is wrong; expectations follow
/// Protocol/transport.md (drops) and Protocol/README.md (error codes).
extension HostileRequest {
    static let ping = #"{"version":1,"id":"p","method":"system.ping"}"#
    /// Valid `streak.summary` params, to break one member at a time.
    static func streak(id: String, records: String = #"[{"date":"2026-05-10","steps":9000}]"#) -> String {
        #"{"version":1,"id":"\#(id)","method":"streak.summary","params":{"time_zone":"Europe/Berlin","#
            + #""today":"2026-05-10","goal_log":[{"effective_date":"2026-01-01","goal":8000}],"records":\#(records)}}"#
    }
    static func nested(_ depth: Int, open: String, core: String = "", close: String) -> String {
        #"{"version":1,"id":"deep","method":"system.ping","extra":"#
            + String(repeating: open, count: depth) + core + String(repeating: close, count: depth) + "}"
    }

    static let transport: [HostileRequest] = [
        .frames("client header MDPC02", ["", "MDPC02", "tally.history", Frame(ping)], .dropped),
        .frames("client header in lower case", ["", "mdpc01", "tally.history", Frame(ping)], .dropped),
        .frames(
            "client header with a trailing NUL", ["", Frame(Array("MDPC01".utf8) + [0]), "tally.history", Frame(ping)],
            .dropped),
        .frames("empty header", ["", "", "tally.history", Frame(ping)], .dropped),
        .frames("no delimiter", ["MDPC01", "tally.history", Frame(ping)], .dropped),
        .frames("non-empty delimiter", ["x", "MDPC01", "tally.history", Frame(ping)], .dropped),
        .frames("delimiter only", [""], .dropped),
        .frames("header without service", ["", "MDPC01"], .dropped),
        .frames("empty service name", ["", "MDPC01", "", Frame(ping)], .dropped),
        .frames(
            "256-byte service name", ["", "MDPC01", Frame(String(repeating: "s", count: 256)), Frame(ping)], .dropped),
        .frames(
            "1 MB service name", ["", "MDPC01", Frame(String(repeating: "s", count: 1 << 20)), Frame(ping)], .dropped),
        .frames("service name not UTF-8", ["", "MDPC01", Frame([0xC3, 0x28]), Frame(ping)], .dropped),
        .frames(
            "255-byte service nobody serves", ["", "MDPC01", Frame(String(repeating: "s", count: 255)), Frame(ping)],
            .error("unavailable")),
        .frames("unknown service", ["", "MDPC01", "tally.nothing", Frame(ping)], .error("unavailable")),
        .frames("no body frame", ["", "MDPC01", "tally.history"], .error("invalid_request", field: "body")),
        .frames("zero-length body", ["", "MDPC01", "tally.history", ""], .error("malformed_json")),
        .frames(
            "body in two frames", ["", "MDPC01", "tally.history", Frame(ping), Frame(ping)],
            .error("invalid_request", field: "body")),
        .frames(
            "27 body frames (the most a worker message holds)",
            ["", "MDPC01", "tally.history"] + Array(repeating: Frame(ping), count: 27),
            .error("invalid_request", field: "body")),
        .frames(
            "28 body frames (fits the broker, not a worker)",
            ["", "MDPC01", "tally.history"] + Array(repeating: Frame(ping), count: 28), .dropped),
        .frames("33 frames", ["", "MDPC01", "tally.history"] + Array(repeating: Frame(ping), count: 30), .dropped),
        .frames("1,000 frames", (0..<1000).map { Frame("\($0)") }, .dropped),
        .frames(
            "10 MB body (over max-body-bytes)",
            [
                "", "MDPC01", "tally.history",
                Frame(#"{"version":1,"id":"big","pad":""# + String(repeating: "x", count: 10 << 20) + #""}"#),
            ],
            .error("payload_too_large", field: "body")),
        .frames(
            "17 MB frame (over ZMQ_MAXMSGSIZE)",
            ["", "MDPC01", "tally.history", Frame([UInt8](repeating: 0x20, count: 17 << 20))], .connectionDropped),
        .frames("worker header without command", ["", "MDPW01"], .dropped),
        .frames("command 0x00", ["", "MDPW01", Frame([0x00])], .dropped),
        .frames("command 0x06", ["", "MDPW01", Frame([0x06])], .dropped),
        .frames("command 0xFF", ["", "MDPW01", Frame([0xFF])], .dropped),
        .frames("two-byte command", ["", "MDPW01", Frame([0x01, 0x01]), "tally.history"], .dropped),
        .frames("empty command", ["", "MDPW01", "", "tally.history"], .dropped),
        .frames("REQUEST sent to the broker", ["", "MDPW01", Frame([0x02]), "client", "", Frame(ping)], .dropped),
        .frames("READY without service", ["", "MDPW01", Frame([0x01])], .dropped),
        .frames("READY with empty service", ["", "MDPW01", Frame([0x01]), ""], .dropped),
        .frames(
            "READY with a 256-byte service", ["", "MDPW01", Frame([0x01]), Frame(String(repeating: "s", count: 256))],
            .dropped),
        .frames("READY with an extra frame", ["", "MDPW01", Frame([0x01]), "tally.history", "extra"], .dropped),
        .frames("READY for an MMI service", ["", "MDPW01", Frame([0x01]), "mmi.service"], .workerDisconnect),
        .frames("HEARTBEAT from a stranger", ["", "MDPW01", Frame([0x04])], .workerDisconnect),
        .frames("HEARTBEAT with an extra frame", ["", "MDPW01", Frame([0x04]), "extra"], .dropped),
        .frames("REPLY from a stranger", ["", "MDPW01", Frame([0x03]), "client", "", Frame(ping)], .workerDisconnect),
        .frames("REPLY without delimiter", ["", "MDPW01", Frame([0x03]), "client", "x", Frame(ping)], .dropped),
        .frames("REPLY without client", ["", "MDPW01", Frame([0x03])], .dropped),
        .frames("DISCONNECT from a stranger", ["", "MDPW01", Frame([0x05])], .dropped),
        .frames("DISCONNECT with an extra frame", ["", "MDPW01", Frame([0x05]), "x"], .dropped),
        .frames("mmi.service for a served service", ["", "MDPC01", "mmi.service", "tally.streak"], .mmi("200")),
        .frames("mmi.service for an unknown service", ["", "MDPC01", "mmi.service", "tally.nothing"], .mmi("404")),
        .frames("mmi.service without body", ["", "MDPC01", "mmi.service"], .mmi("404")),
        .frames("mmi.service with a body not UTF-8", ["", "MDPC01", "mmi.service", Frame([0xFF])], .mmi("404")),
        .frames("unknown MMI service", ["", "MDPC01", "mmi.nope", "x"], .mmi("501")),
    ]

    static let json: [HostileRequest] = [
        .body("truncated JSON", #"{"version":1,"id":"t","method":"system.pi"#, .error("malformed_json")),
        .body("whitespace only", "   \n\t ", .error("malformed_json")),
        .body("null", "null", .error("invalid_request")),
        .body("empty array", "[]", .error("invalid_request")),
        .body("array holding a request", "[\(ping)]", .error("invalid_request")),
        .body("a string", #""system.ping""#, .error("invalid_request")),
        .body("a number", "42", .error("invalid_request")),
        .body("true", "true", .error("invalid_request")),
        .body("empty object", "{}", .error("invalid_request", field: "version")),
        .body(
            "version as a string", #"{"version":"1","id":"v","method":"system.ping"}"#,
            .error("invalid_request", field: "version")),
        .body(
            "version 1.5", #"{"version":1.5,"id":"v","method":"system.ping"}"#,
            .error("invalid_request", field: "version")),
        .body(
            "version true", #"{"version":true,"id":"v","method":"system.ping"}"#,
            .error("invalid_request", field: "version")),
        .body(
            "version null", #"{"version":null,"id":"v","method":"system.ping"}"#,
            .error("invalid_request", field: "version")),
        .body(
            "version 2", #"{"version":2,"id":"v","method":"system.ping"}"#,
            .error("unsupported_version", field: "version")),
        .body(
            "version 0", #"{"version":0,"id":"v","method":"system.ping"}"#,
            .error("unsupported_version", field: "version")),
        .body(
            "version -1", #"{"version":-1,"id":"v","method":"system.ping"}"#,
            .error("unsupported_version", field: "version")),
        .body(
            "version -0", #"{"version":-0,"id":"v","method":"system.ping"}"#,
            .error("unsupported_version", field: "version")),
        .body(
            "version 1e400", #"{"version":1e400,"id":"v","method":"system.ping"}"#,
            .error("invalid_request", field: "version")),
        .body(
            "version over Int64", #"{"version":99999999999999999999,"id":"v","method":"system.ping"}"#,
            .error("invalid_request", field: "version")),
        .body(
            "id as a number", #"{"version":1,"id":7,"method":"system.ping"}"#, .error("invalid_request", field: "id")),
        .body("id null", #"{"version":1,"id":null,"method":"system.ping"}"#, .error("invalid_request", field: "id")),
        .body(
            "id as an object", #"{"version":1,"id":{"a":1},"method":"system.ping"}"#,
            .error("invalid_request", field: "id")),
        .body("empty id", #"{"version":1,"id":"","method":"system.ping"}"#, .error("invalid_request", field: "id")),
        .body(
            "id of 129 characters",
            #"{"version":1,"id":"\#(String(repeating: "i", count: 129))","method":"system.ping"}"#,
            .error("invalid_request", field: "id")),
        .body(
            "id of 900 KB", #"{"version":1,"id":"\#(String(repeating: "i", count: 900_000))","method":"system.ping"}"#,
            .error("invalid_request", field: "id")),
        .body("id with an escaped NUL", #"{"version":1,"id":"a\u0000b","method":"system.ping"}"#, .result),
        .body(
            "id with a lone surrogate escape (no Unicode text)", #"{"version":1,"id":"\ud800","method":"system.ping"}"#,
            .error("malformed_json")),
        .body("no method", #"{"version":1,"id":"m"}"#, .error("invalid_request", field: "method")),
        .body("method as a number", #"{"version":1,"id":"m","method":5}"#, .error("invalid_request", field: "method")),
        .body("empty method", #"{"version":1,"id":"m","method":""}"#, .error("unknown_method", field: "method")),
        .body(
            "unknown method", #"{"version":1,"id":"m","method":"history.nope"}"#,
            .error("unknown_method", field: "method")),
        .body(
            "method of another service", Self.streak(id: "m"), service: "tally.history",
            .error("unknown_method", field: "method")),
        .body(
            "method of 100 KB", #"{"version":1,"id":"m","method":"\#(String(repeating: "m", count: 100_000))"}"#,
            .error("unknown_method", field: "method")),
        .body(
            "params missing", #"{"version":1,"id":"p","method":"streak.summary"}"#, service: "tally.streak",
            .error("invalid_request", field: "params")),
        .body(
            "params as an array", #"{"version":1,"id":"p","method":"streak.summary","params":[1]}"#,
            service: "tally.streak",
            .error("invalid_request", field: "params")),
        .body(
            "params as a string", #"{"version":1,"id":"p","method":"streak.summary","params":"x"}"#,
            service: "tally.streak",
            .error("invalid_request", field: "params")),
        .body(
            "params empty", #"{"version":1,"id":"p","method":"streak.summary","params":{}}"#, service: "tally.streak",
            .error("invalid_params", field: "params.time_zone")),
        .body(
            "records as an object", Self.streak(id: "r", records: #"{"date":"2026-05-10"}"#), service: "tally.streak",
            .error("invalid_params", field: "params.records")),
        .body(
            "steps over Int64", Self.streak(id: "r", records: #"[{"date":"2026-05-10","steps":99999999999999999999}]"#),
            service: "tally.streak", .error("invalid_params", field: "params.records[0].steps")),
        .body(
            "steps 1e400", Self.streak(id: "r", records: #"[{"date":"2026-05-10","steps":1e400}]"#),
            service: "tally.streak", .error("invalid_params", field: "params.records[0].steps")),
        .body(
            "steps -0", Self.streak(id: "r", records: #"[{"date":"2026-05-10","steps":-0}]"#),
            service: "tally.streak", .result),
        .body(
            "steps NaN", Self.streak(id: "r", records: #"[{"date":"2026-05-10","steps":NaN}]"#),
            service: "tally.streak", .error("malformed_json")),
        .body(
            "steps Infinity", Self.streak(id: "r", records: #"[{"date":"2026-05-10","steps":Infinity}]"#),
            service: "tally.streak", .error("malformed_json")),
        .body(
            "steps -Infinity", Self.streak(id: "r", records: #"[{"date":"2026-05-10","steps":-Infinity}]"#),
            service: "tally.streak", .error("malformed_json")),
        .body(
            "impossible date", Self.streak(id: "r", records: #"[{"date":"2025-02-30","steps":1}]"#),
            service: "tally.streak", .error("invalid_params", field: "params.records[0].date")),
        .body(
            "20,001 records (over max-list-elements)",
            Self.streak(
                id: "r",
                records: "["
                    + Array(repeating: #"{"date":"2026-05-10","steps":1}"#, count: 20_001)
                    .joined(separator: ",") + "]"),
            service: "tally.streak", .error("payload_too_large", field: "params.records")),
        .body(
            "deadline not a date", #"{"version":1,"id":"d","method":"system.ping","deadline":"soon"}"#,
            .error("invalid_request", field: "deadline")),
        .body(
            "deadline as a number", #"{"version":1,"id":"d","method":"system.ping","deadline":1234}"#,
            .error("invalid_request", field: "deadline")),
        .body(
            "deadline without offset",
            #"{"version":1,"id":"d","method":"system.ping","deadline":"2030-01-01T00:00:00"}"#,
            .error("invalid_request", field: "deadline")),
        .body(
            "deadline passed", #"{"version":1,"id":"d","method":"system.ping","deadline":"2020-01-01T00:00:00Z"}"#,
            .error("deadline_exceeded")),
        .body(
            "trace of the wrong type", #"{"version":1,"id":"tr","method":"system.ping","trace":7}"#,
            .error("invalid_request", field: "trace")),
        .body("unknown members", #"{"version":1,"id":"u","method":"system.ping","x":{"y":[1,2,{"z":null}]}}"#, .result),
        .body(
            "50,000 unknown members",
            "{" + (0..<50_000).map { #""k\#($0)":0,"# }.joined() + #""version":1,"id":"k","method":"system.ping"}"#,
            .result),
        .body(
            "duplicate id keys (the first counts)", #"{"version":1,"id":"dup-a","id":"dup-b","method":"system.ping"}"#,
            .result),
        .body(
            "duplicate method keys (the first counts)",
            #"{"version":1,"id":"dup","method":"system.ping","method":"history.nope"}"#, .result),
        .bytes(
            "UTF-8 byte order mark (refused; RFC 8259 §8.1: senders must not add one)",
            [0xEF, 0xBB, 0xBF] + Array(ping.utf8), .error("malformed_json")),
        .bytes(
            "UTF-16 encoded", Array(ping.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, .error("malformed_json")
        ),
        .bytes("invalid UTF-8", [0x7B, 0xFF, 0xFE, 0x7D], .error("malformed_json")),
        .bytes(
            "invalid UTF-8 inside the id",
            Array(#"{"version":1,"id":""#.utf8) + [0xC3, 0x28] + Array(#"","method":"system.ping"}"#.utf8),
            .error("malformed_json")),
        .body("trailing garbage", ping + " x", .error("malformed_json")),
        .body("two documents", ping + ping, .error("malformed_json")),
        .body("a comment", "// hi\n" + ping, .error("malformed_json")),
        .body("single quotes", "{'version':1,'id':'q','method':'system.ping'}", .error("malformed_json")),
        .body("unquoted keys", "{version:1,id:\"q\",method:\"system.ping\"}", .error("malformed_json")),
        .body("trailing comma", #"{"version":1,"id":"q","method":"system.ping",}"#, .error("malformed_json")),
        .body(
            "raw newline in a string", "{\"version\":1,\"id\":\"a\nb\",\"method\":\"system.ping\"}",
            .error("malformed_json")),
        .body("10,000 nested arrays", nested(10_000, open: "[", close: "]"), .error("malformed_json")),
        .body(
            "10,000 nested objects", nested(10_000, open: #"{"a":"#, core: "1", close: "}"), .error("malformed_json")),
        .body("control: a valid ping", ping, .result),
        .body("control: a valid streak.summary", Self.streak(id: "ok"), service: "tally.streak", .result),
    ]
}
