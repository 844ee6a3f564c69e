import Foundation
import TallyCommandLine
import Testing

@Suite struct MallocTuningTests {
    @Test func appliesTheThresholdsUnlessTheOperatorTunesMallocItself() {
        #expect(MallocTuning.keepRequestBuffers(environment: [:]))
        #expect(MallocTuning.keepRequestBuffers(environment: ["GLIBC_TUNABLES": "glibc.pthread.rseq=0"]))
        #expect(!MallocTuning.keepRequestBuffers(environment: ["GLIBC_TUNABLES": "glibc.malloc.trim_threshold=0"]))
    }
}

@Suite struct ParentWatchOptionTests {
    @Test func watchesOnlyWhenTheEnvironmentNamesAParent() {
        #expect(!ParentWatch.start(environment: [:]))
        #expect(!ParentWatch.start(environment: ["TALLY_PARENT_PID": "not a pid"]))
        #expect(!ParentWatch.start(environment: ["TALLY_PARENT_PID": "1"]))
        // This process's real parent: the watch starts and stays quiet while that parent lives.
        #expect(ParentWatch.start(environment: ["TALLY_PARENT_PID": String(getppid())]))
    }
}
