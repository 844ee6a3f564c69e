import Foundation
import TallyCore
import TallyJSONCoding
import TallyProtocol
@testable import TallyWorker
import Testing

/// The contract's closed sets, which the core speaks too: the names are the ones v1 froze, every milestone tier of
/// the core has its name on the wire, and text outside a set is refused naming the set's names.
@Suite struct ClosedSetTests {
    @Test func dayStatesHaveTheirFrozenNames() {
        #expect(
            DayState.allCases.map(\.rawValue) == ["completed", "in_progress", "full", "zero", "no_data", "future"])
    }

    @Test func everyMilestoneTierHasItsName() {
        #expect(
            MilestoneTier.allCases.map { StreakSummary.TierName($0).rawValue.capitalized }
                == MilestoneTier.allCases.map(\.name))
    }

    @Test(arguments: ["kg", "lb", "lbs", "KG", "k", "", "gk", "kg "])
    func unitBytesReadAsTheUnitsNames(_ text: String) {
        let fromBytes = Array(text.utf8).withUnsafeBufferPointer { WeightUnit(utf8Symbol: $0) }
        #expect(fromBytes == WeightUnit(rawValue: text))
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
            refusal(WeightUnit.self), refusal(ActivityType.self),
            refusal(DashboardMode.self),
        ]
        #expect(refusals.contains(JSONDecodingError(at: FieldPath([.index(0)]), .invalid(words))))
    }
}
