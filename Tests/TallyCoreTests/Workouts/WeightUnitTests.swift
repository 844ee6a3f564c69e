import TallyCore
import Testing

@Suite struct WeightUnitTests {
    @Test func poundIsExactlyTheInternationalPound() {
        #expect(WeightUnit.kilogram.converting(100, from: .pound) == 45.359237)
        #expect(WeightUnit.pound.converting(45.359237, from: .kilogram) == 100)
        #expect(WeightUnit.kilogram.converting(62.5, from: .kilogram) == 62.5)
        #expect(WeightUnit.pound.converting(135, from: .pound) == 135)
    }

    @Test func symbols() {
        #expect(WeightUnit(symbol: "kg") == .kilogram)
        #expect(WeightUnit(symbol: "lb") == .pound)
        #expect(WeightUnit(symbol: "lbs") == nil)
        #expect(WeightUnit(symbol: "KG") == nil)
        #expect(WeightUnit.pound.symbol == "lb")
    }

    @Test(arguments: ["kg", "lb", "lbs", "KG", "k", "", "gk", "kg "])
    func symbolBytesReadAsSymbols(_ text: String) {
        #expect(Array(text.utf8).withUnsafeBufferPointer { WeightUnit(utf8Symbol: $0) } == WeightUnit(symbol: text))
    }
}
