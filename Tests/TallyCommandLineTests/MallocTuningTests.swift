import TallyCommandLine
import Testing

@Suite struct MallocTuningTests {
    @Test func appliesTheThresholdsUnlessTheOperatorTunesMallocItself() {
        #expect(MallocTuning.keepRequestBuffers(environment: [:]))
        #expect(MallocTuning.keepRequestBuffers(environment: ["GLIBC_TUNABLES": "glibc.pthread.rseq=0"]))
        #expect(!MallocTuning.keepRequestBuffers(environment: ["GLIBC_TUNABLES": "glibc.malloc.trim_threshold=0"]))
    }
}
