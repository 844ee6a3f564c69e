@testable import Majordomo
import Testing
import ZeroMQ

/// Every loop reads a message with `Socket.receive(within:cache:decode:)` and decodes its body out of the frame
/// list in place: the body keeps the list's storage, which is only possible while the decoder holds the list's only
/// reference. A second one (a copy of the received message kept alive beside it) made every decode copy the list
/// into a new array: an allocation and a copy per message, on the broker twice per request.
@Suite struct ReceivedFramesStorageTests {
    /// A REQUEST sent from one end of a pair, received at the other: the decoder gets the frame list's only
    /// reference, and the body it decodes is in that list's storage.
    @Test func theDecoderGetsTheOnlyReferenceAndTheBodyKeepsItsStorage() throws {
        let context = try Context()
        let receiver = try Socket(context, type: .pair)
        try receiver.bind("inproc://received-frames-storage")
        let sender = try Socket(context, type: .pair)
        try sender.connect("inproc://received-frames-storage")
        defer {
            sender.close()
            receiver.close()
        }
        let body = Frame(Array(#"{"version":1,"id":"a","method":"system.ping","params":{}}"#.utf8))
        try sender.send(["", "MDPW01", WorkerCommand.request.frame, "client", "", body])

        var decoderHadTheOnlyReference = false
        var storage: UInt?
        var received: Received<WorkerInbound> = .nothing
        // The message may take a moment to cross the pair: read until it has.
        for _ in 0..<10_000 {
            received = receiver.receive(within: TransportLimits(), cache: FrameCache()) { frames, _ in
                var frames = consume frames
                // Writing needs no copy only when this is the list's one reference.
                let shared = frames.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
                let own = frames.withUnsafeMutableBufferPointer { UInt(bitPattern: $0.baseAddress) }
                decoderHadTheOnlyReference = shared == own
                storage = own
                return try WorkerInbound(frames: consume frames)
            }
            if case .nothing = received { continue }
            break
        }
        guard case .message(.request(let client, let requestBody)) = received else {
            Issue.record("no REQUEST decoded: \(received)")
            return
        }
        #expect(client == "client")
        #expect(requestBody == [body])
        #expect(decoderHadTheOnlyReference, "the received message's frame list reached the decoder shared")
        #expect(
            requestBody.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } == storage,
            "the body was copied out of the frame list instead of kept in its storage")
    }
}
