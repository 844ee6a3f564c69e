import Dispatch
import Testing
import ZeroMQ

@testable import Majordomo

/// The inbox's wake-up signal is written only by the post that finds the list empty: no command may ever wait
/// without a pending wake-up.
@Suite struct InboxTests {
    @Test func aPostWakesTheOwnerAndTakeAllEmptiesEverything() throws {
        let inbox = try Inbox<Int>()
        var poller = Poller()
        let item = poller.register(fileDescriptor: inbox.wakeup.fileDescriptor)
        try poller.poll(timeout: .zero)
        #expect(!poller.ready(item).contains(.readable))
        inbox.post(1)
        inbox.post(2)
        try poller.poll(timeout: .zero)
        #expect(poller.ready(item).contains(.readable))
        #expect(inbox.takeAll() == [1, 2])
        try poller.poll(timeout: .zero)
        #expect(!poller.ready(item).contains(.readable))
        inbox.post(3)
        try poller.poll(timeout: .zero)
        #expect(poller.ready(item).contains(.readable))
        #expect(inbox.takeAll() == [3])
    }

    @Test func concurrentPostsAreNeverLeftWithoutAWakeUp() throws {
        let inbox = try Inbox<Int>()
        let producers = 4
        let perProducer = 20_000
        let group = DispatchGroup()
        for producer in 0..<producers {
            DispatchQueue.global().async(group: group) {
                for value in 0..<perProducer { inbox.post(producer * perProducer + value) }
            }
        }
        var poller = Poller()
        let item = poller.register(fileDescriptor: inbox.wakeup.fileDescriptor)
        var received = 0
        var stalls = 0
        while received < producers * perProducer {
            // Only the wake-up may tell the owner that work is there; a lost one shows up as a full-second stall.
            try poller.poll(timeout: .seconds(1))
            if poller.ready(item).contains(.readable) {
                received += inbox.takeAll().count
            } else {
                stalls += 1
                if stalls > 3 { break }
            }
        }
        group.wait()
        #expect(received == producers * perProducer)
        #expect(stalls == 0)
    }
}

/// An inbox whose owner has ended refuses posts, so that nobody waits for an answer that cannot come.
@Suite struct InboxClosingTests {
    @Test func aClosedInboxHandsBackWhatWasLeftAndRefusesLaterPosts() throws {
        let inbox = try Inbox<Int>()
        #expect(inbox.post(1))
        #expect(inbox.post(2))
        #expect(inbox.close() == [1, 2])
        #expect(!inbox.post(3))
        #expect(inbox.takeAll().isEmpty)
        #expect(inbox.close().isEmpty)
    }
}
