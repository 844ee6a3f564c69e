@testable import Majordomo
import Testing

/// One worker connection's protocol state on a hand-advanced clock: when its READY carries Tally's capabilities.
@Suite struct WorkerSessionTests {
    let configuration: WorkerConfiguration = {
        var configuration = WorkerConfiguration(brokers: ["tcp://127.0.0.1:1"], services: ["s"])
        configuration.heartbeatInterval = .seconds(1)
        configuration.heartbeatLiveness = 3
        configuration.reconnectDelay = .seconds(1)
        return configuration
    }()

    func session() -> WorkerSession {
        WorkerSession(index: 0, service: "s", broker: "tcp://127.0.0.1:1", credit: 8, configuration: configuration)
    }

    /// Drives `session` through connecting, hearing `heard` from the broker, and giving it up as silent.
    func reconnect(_ session: inout WorkerSession, at now: inout Duration, hearing heard: [Bool]) {
        session.connected(now: now)
        for disconnect in heard { session.heardFromBroker(now: now, disconnect: disconnect) }
        now += .seconds(3)
        #expect(session.due(now: now) == .dropConnection(reason: "broker silent for 3.0 seconds"))
        session.disconnected(now: now)
        now += .seconds(1)
    }

    @Test func aBrokerThatWasSilentIsNoReasonToDropTheCapabilities() {
        // A broker stalled or down across several reconnects (kill -STOP, a restart that takes a while): each
        // connection hears nothing; the READY of the next one still says which process it belongs to.
        var session = session()
        var now = Duration.zero
        reconnect(&session, at: &now, hearing: [false])  // registered, then the broker stalled
        for _ in 0..<4 {
            #expect(session.offersCapabilities)
            reconnect(&session, at: &now, hearing: [])
        }
        #expect(session.offersCapabilities)
    }

    @Test func aBrokerThatRefusedTheCapabilitiesGetsOnePlainReady() {
        // A strict MDP/0.1 broker answers the five-frame READY, or the heartbeats after it, with DISCONNECT only.
        var session = session()
        var now = Duration.zero
        session.connected(now: now)
        session.heardFromBroker(now: now, disconnect: true)
        session.disconnected(now: now)
        #expect(!session.offersCapabilities, "one plain READY")
        now += .seconds(1)
        session.connected(now: now)
        session.heardFromBroker(now: now, disconnect: true)
        session.disconnected(now: now)
        #expect(session.offersCapabilities, "refused plain too: the capabilities were not the reason")
        now += .seconds(1)
        // Accepted (anything but DISCONNECT), then silent: the capabilities stay.
        reconnect(&session, at: &now, hearing: [false, true])
        #expect(session.offersCapabilities)
    }
}
