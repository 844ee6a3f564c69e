// Tally's broker (`BrokerService`, as tally-broker makes it) in a plain process, for callgrind.
//
//     broker-process ENDPOINT [TRANSPORT-THREADS]
//
// tally-broker runs under swift-service-lifecycle, whose async main parks the main thread in libdispatch
// (`_dispatch_sig_thread`, sigsuspend), and valgrind 3.19 crashes there. This runs the same broker with the same
// envelope from synchronous top-level code: it prints its endpoint, serves until standard input closes, and exits,
// which is when callgrind writes its counts (one file per thread with `--separate-threads=yes`; the loop is the
// thread named `mdp-broker`). Benchmarks/run-broker-instructions.sh drives it.

import Foundation
import Logging
import TallyBroker

let arguments = CommandLine.arguments
let endpoint = arguments.count > 1 ? arguments[1] : "tcp://127.0.0.1:5555"
let transportThreads = arguments.count > 2 ? Int(arguments[2]) : 1
var logger = Logger(label: "tally.broker")
logger.logLevel = .warning
let service = try BrokerService(endpoints: [endpoint], transportThreads: transportThreads, logger: logger)
let bound = try service.start()
FileHandle.standardOutput.write(Data("broker-process listening on \(bound.joined(separator: " "))\n".utf8))
while readLine() != nil {}
exit(0)
