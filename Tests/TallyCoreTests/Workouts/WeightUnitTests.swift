import TallyCore
import TallyProtocol
import Testing

@Suite struct WeightUnitTests {
    @Test func poundIsExactlyTheInternationalPound() {
        #expect(WeightUnit.kilogram.converting(100, from: .pound) == 45.359237)
        #expect(WeightUnit.pound.converting(45.359237, from: .kilogram) == 100)
        #expect(WeightUnit.kilogram.converting(62.5, from: .kilogram) == 62.5)
        #expect(WeightUnit.pound.converting(135, from: .pound) == 135)
    }
}
