import Foundation
import TallyCore
import TallyProtocol
@testable import TallyWorker
import Testing

/// The contract's closed sets and the core values they stand for: every core value has its name on the wire, the
/// names are the ones v1 froze, and text outside a set is refused naming the set's names.
@Suite struct ClosedSetTests {
    @Test func everyCoreDayStateHasItsFrozenName() {
        let names = TallyCore.DayState.allCases.map { TallyProtocol.DayState($0).rawValue }
        #expect(names == ["completed", "in_progress", "full", "zero", "no_data", "future"])
        #expect(Set(TallyProtocol.DayState.allCases.map(\.rawValue)) == Set(names))
    }

    @Test func activityTypesAndKindsMapOneToOne() {
        #expect(ActivityKind.allCases.map { ActivityType($0) } == ActivityType.allCases)
        #expect(ActivityType.allCases.map { ActivityKind($0) } == ActivityKind.allCases)
    }

    @Test func weightUnitsAndChartModesMapOneToOne() {
        #expect(TallyCore.WeightUnit.allCases.map { TallyProtocol.WeightUnit($0) } == TallyProtocol.WeightUnit.allCases)
        #expect(
            TallyProtocol.WeightUnit.allCases.map { TallyCore.WeightUnit($0) } == TallyCore.WeightUnit.allCases)
        #expect(
            TallyProtocol.DashboardMode.allCases.map { TallyCore.DashboardMode($0) }
                == TallyCore.DashboardMode.allCases)
        #expect(
            MilestoneTier.allCases.map { StreakSummary.TierName($0).rawValue.capitalized }
                == MilestoneTier.allCases.map(\.name))
    }

    @Test(arguments: ["kg", "lb", "lbs", "KG", "k", "", "gk", "kg "])
    func unitBytesReadAsTheUnitsNames(_ text: String) {
        let fromBytes = Array(text.utf8).withUnsafeBufferPointer { TallyProtocol.WeightUnit(utf8Symbol: $0) }
        #expect(fromBytes == TallyProtocol.WeightUnit(rawValue: text))
    }

    @Test(arguments: [
        (#""kgs""#, #"'kgs' is not a unit: expected "kg" or "lb""#),
        (#""yoga""#, #"'yoga' is not an activity type: expected "workout", "stretch" or "meditation""#),
        (#""hourly""#, #"'hourly' is not a chart mode: expected "daily", "weekly" or "monthly""#),
    ])
    func namesOutsideASetAreRefusedWithTheSetsNames(_ json: String, _ words: String) {
        func refusal<Name: Decodable>(_ type: Name.Type) -> JSONDecodingError? {
            do {
                _ = try TallyJSONDecoder().decode([Name].self, from: Array("[\(json)]".utf8))
                return nil
            } catch {
                return error as? JSONDecodingError
            }
        }
        let refusals = [
            refusal(TallyProtocol.WeightUnit.self), refusal(ActivityType.self),
            refusal(TallyProtocol.DashboardMode.self),
        ]
        #expect(refusals.contains(JSONDecodingError(at: FieldPath([.index(0)]), .invalid(words))))
    }
}
