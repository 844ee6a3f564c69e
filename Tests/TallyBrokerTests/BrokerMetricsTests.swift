import Majordomo
import MetricsTestKit
import TallyBroker
import Testing
import ZeroMQ

/// What the broker's metrics say: every metric with its HELP text, and the worker gauges split into processes,
/// connections, capacity and requests in flight, with unregistered service names kept under one label.
@Suite struct BrokerMetricsTests {
    /// Every label the test factory saw created.
    func createdNames(_ recorded: TestMetrics) -> Set<String> {
        Set(recorded.counters.map(\.label) + recorded.recorders.map(\.label) + recorded.timers.map(\.label))
    }

    @Test func everyMetricRecordedHasHelpTextAndEveryHelpTextNamesAMetricRecorded() {
        let recorded = TestMetrics()
        let metrics = BrokerMetrics(factory: recorded)
        let worker: Frame = "worker"
        let events: [BrokerEvent] = [
            .workerReady(worker: worker, service: "s"),
            .replyDelivered(service: "s", latency: .milliseconds(3), attempts: 1),
            .requestFailed(service: "s", failure: .overloaded(limit: 1)),
            .requestRequeued(service: "s", attempts: 1),
            .requestReturned(service: "s"),
            .requestPoisoned(service: "s", request: "r"),
            .workerExpired(worker: worker, service: "s"),
            .workerDisconnected(worker: worker, service: "s"),
            .workerTimedOut(worker: worker, service: "s", held: .seconds(60)),
            .protocolViolation(peer: worker, reason: "garbage"),
            .replyDropped(worker: worker, reason: "unknown worker"),
            .replyRefused(worker: worker, service: "s", reason: .notHeld),
            .managementQuery(service: "mmi.service", answer: "200"),
        ]
        for event in events { metrics.record(event) }
        metrics.update(BrokerSnapshot(services: ["s": .init(workers: 1)], isDraining: false))

        let created = createdNames(recorded)
        #expect(created.subtracting(BrokerMetrics.help.keys).isEmpty, "metrics without help")
        #expect(Set(BrokerMetrics.help.keys).subtracting(created).isEmpty, "help for metrics never recorded")
        #expect(!created.contains("tally_broker_workers"), "renamed: it counted connections")
        for (name, help) in BrokerMetrics.help {
            #expect(!help.isEmpty && !help.contains("\n"), "\(name): a HELP text is one non-empty line")
        }
    }

    @Test func workerGaugesShowProcessesConnectionsCapacityAndInFlightPerRegisteredService() throws {
        let recorded = TestMetrics()
        let metrics = BrokerMetrics(factory: recorded)
        metrics.record(.workerReady(worker: "w", service: "tally.streak"))
        metrics.record(.workerReady(worker: "w", service: "tally.history"))
        metrics.update(
            BrokerSnapshot(
                services: [
                    "tally.streak": .init(
                        queued: 2, workers: 6, idleWorkers: 1, workerProcesses: 3, credit: 11, inFlight: 9),
                    // Never registered through the metrics (a client named it): summed into `unknown`.
                    "typo": .init(queued: 4),
                    "flood": .init(queued: 1, workers: 1, workerProcesses: 1, credit: 1, inFlight: 1),
                ], isDraining: false))

        func gauge(_ name: String, _ service: String) throws -> Double? {
            try recorded.expectGauge(name, [("service", service)]).lastValue
        }
        #expect(try gauge("tally_broker_worker_processes", "tally.streak") == 3)
        #expect(try gauge("tally_broker_worker_connections", "tally.streak") == 6)
        #expect(try gauge("tally_broker_worker_request_capacity", "tally.streak") == 11)
        #expect(try gauge("tally_broker_in_flight_requests", "tally.streak") == 9)
        #expect(try gauge("tally_broker_queued_requests", "tally.streak") == 2)
        // Registered, and since forgotten by the broker (its last worker left): 0, not a stale value.
        #expect(try gauge("tally_broker_worker_connections", "tally.history") == 0)
        #expect(try gauge("tally_broker_queued_requests", BrokerMetrics.unknownService) == 5)
        #expect(try gauge("tally_broker_worker_processes", BrokerMetrics.unknownService) == 1)
        #expect(try gauge("tally_broker_in_flight_requests", BrokerMetrics.unknownService) == 1)
        #expect(recorded.recorders.allSatisfy { $0.dimensions.first?.1 != "typo" && $0.dimensions.first?.1 != "flood" })
    }
}
