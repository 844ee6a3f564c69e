import Majordomo
import TallyBroker
import TallyProtocol
import ZeroMQ

// A profiling driver for the broker's own work, without sockets: every iteration is one request's life in the
// broker as the socket loop sees it — a client REQUEST decoded, dispatched to a worker (frames built), the worker's
// REPLY decoded, matched and delivered (frames built) — with 2 worker processes of 3 connections each offering
// credit 8, and 100 requests in flight. `valgrind --tool=callgrind` on it counts the broker's instructions per
// request, which wall-clock time on a shared machine cannot.
//
// Usage: transport-loop [iterations]

let arguments = CommandLine.arguments
let iterations = arguments.count > 1 ? Int(arguments[1]) ?? 100_000 : 100_000
let inFlight = 100

/// Ids cycle through this many: more than are ever in flight, so each is unique among those waiting.
let distinctIDs = 1000

/// v1 ping bodies as a client sends them, and the worker's answers echoing their ids, made before the loop so
/// that the count is the broker's alone.
let requestBodies = (0..<distinctIDs).map { id in
    Frame(#"{"version":1,"id":"load-\#(id)","method":"system.ping","params":{}}"#)
}
let replyBodies = (0..<distinctIDs).map { id in
    Frame(
        #"{"version":1,"id":"load-\#(id)","result":{"server_version":"loop","protocol_versions":[1],"uptime_seconds":1.5,"service":"tally.history","worker":"loop/1","connection":0}}"#
    )
}
let clientRequests = requestBodies.map { body in
    [Frame([0, 0, 0, 1, 0])] + ClientOutbound.request(service: "tally.history", body: [body])
}

/// The broker and the world around it for one run.
struct BrokerRun {
    var machine = BrokerStateMachine(configuration: BrokerConfiguration(), envelope: TallyEnvelope(), now: .zero)
    let client = Frame([0, 0, 0, 1, 0])
    /// What the socket loop would send: (worker, token, id) of each REQUEST not answered yet.
    var outstanding: [(worker: Frame, token: Frame, id: Int)] = []
    var delivered = 0
    var framesSent = 0
    var next = 0
    var now = Duration.zero

    init() throws {
        for index in 0..<6 {
            let worker = Frame([0, 0, 0, 0, UInt8(index)])
            let ready = WorkerOutbound.ready(
                service: "tally.history", capabilities: WorkerCapabilities(instance: "p\(index / 3)", credit: 8))
            _ = machine.received(try BrokerInbound(frames: [worker] + ready), now: .zero)
        }
    }

    mutating func play(_ actions: [BrokerAction]) {
        for action in actions {
            guard case .send(let frames) = action else { continue }
            framesSent &+= frames.count
            if frames.count > 6, frames[3] == WorkerCommand.request.frame {
                // The id is the index of the body among `requestBodies`: read from its digits.
                let digits = TallyEnvelope().correlationKey(of: [frames[6]])!.dropFirst("load-".count)
                outstanding.append((frames[0], frames[4], digits.reduce(0) { $0 * 10 + Int($1 - 48) }))
            } else if frames[2] == MDP.clientHeader {
                delivered += 1
            }
        }
    }

    mutating func request() throws {
        play(machine.received(try BrokerInbound(frames: clientRequests[next % distinctIDs]), now: now))
        next += 1
    }

    mutating func answerOldest() throws {
        let (worker, token, id) = outstanding.removeFirst()
        let frames = [worker] + WorkerOutbound.reply(client: token, body: [replyBodies[id]])
        play(machine.received(try BrokerInbound(frames: frames), now: now))
    }
}

func run() throws {
    var run = try BrokerRun()
    for _ in 0..<inFlight { try run.request() }
    for iteration in 0..<iterations {
        run.now += .microseconds(10)
        try run.answerOldest()
        try run.request()
        if iteration % 1000 == 0 { run.play(run.machine.tick(now: run.now)) }
    }
    print("transport-loop: \(iterations) requests, \(run.delivered) delivered, \(run.framesSent) frames sent")
    precondition(run.delivered == iterations, "every reply is delivered")
}

try run()
