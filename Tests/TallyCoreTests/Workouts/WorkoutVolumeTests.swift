import TallyCore
import TallyProtocol
import Testing

@Suite struct WorkoutVolumeTests {
    /// Rounds like the wire does, so the expectations can be written to 2 decimals.
    func cents(_ value: Double) -> Double { (value * 100).rounded() / 100 }

    @Test func mixedUnitsInKilograms() throws {
        let volume = WorkoutVolume(try WorkoutFixtures.mixedWorkout(), in: .kilogram)
        // Bench 1640 kg; rows 1150 lb × 0.45359237 = 521.6312255 kg; pull-ups 125 lb = 56.69904625 kg.
        #expect(volume.exercises.map(\.name) == ["Bench Press", "Dumbbell Row", "Pull-up"])
        #expect(volume.exercises[0].volume == 1640)
        #expect(cents(volume.exercises[1].volume) == 521.63)
        #expect(cents(volume.exercises[2].volume) == 56.70)
        // 1640 + 521.6312255 + 56.69904625 = 2218.33027175.
        #expect(abs(volume.total - 2218.33027175) < 1e-9)
        #expect(cents(volume.total) == 2218.33)
    }

    @Test func mixedUnitsInPounds() throws {
        let volume = WorkoutVolume(try WorkoutFixtures.mixedWorkout(), in: .pound)
        // Bench 1640 kg / 0.45359237 = 3615.5810998 lb; rows 1150 lb; pull-ups 125 lb.
        #expect(cents(volume.exercises[0].volume) == 3615.58)
        #expect(volume.exercises[1].volume == 1150)
        #expect(volume.exercises[2].volume == 125)
        // 3615.5810998 + 1150 + 125 = 4890.5810998.
        #expect(cents(volume.total) == 4890.58)
    }

    @Test func distinctWeightsAscendingInTheUnitAsked() throws {
        let kilograms = WorkoutVolume(try WorkoutFixtures.mixedWorkout(), in: .kilogram)
        #expect(kilograms.exercises[0].weights == [60, 70, 80])
        // 50 lb = 22.6796185 kg, 55 lb = 24.94758035 kg.
        #expect(kilograms.exercises[1].weights.map(cents) == [22.68, 24.95])
        // Bodyweight is listed as 0, before 25 lb = 11.33980925 kg.
        #expect(kilograms.exercises[2].weights.map(cents) == [0, 11.34])

        let pounds = WorkoutVolume(try WorkoutFixtures.mixedWorkout(), in: .pound)
        // 60 kg = 132.27736 lb, 70 kg = 154.32358 lb, 80 kg = 176.36981 lb.
        #expect(pounds.exercises[0].weights.map(cents) == [132.28, 154.32, 176.37])
        #expect(pounds.exercises[1].weights == [50, 55])
        #expect(pounds.exercises[2].weights == [0, 25])
    }

    @Test func bodyweightSetsCountAsSetsWithoutVolume() throws {
        let workout = try WorkoutFixtures.workout(
            "bw", at: "2026-03-10T07:00:00Z",
            exercises: [
                ExerciseParams(
                    name: "Push-up",
                    sets: [WorkoutFixtures.kg(20, 0), WorkoutFixtures.kg(15, 0), WorkoutFixtures.lb(12, 0)])
            ])
        let volume = WorkoutVolume(workout, in: .kilogram)
        #expect(volume.total == 0)
        #expect(volume.setCount == 3)
        #expect(volume.bodyweightSetCount == 3)
        #expect(volume.exercises[0].weights == [0])
        #expect(volume.exercises[0].setCount == 3)
    }

    @Test func setCountsOfTheMixedWorkout() throws {
        let volume = WorkoutVolume(try WorkoutFixtures.mixedWorkout(), in: .kilogram)
        #expect(volume.setCount == 8)
        #expect(volume.bodyweightSetCount == 2)
        #expect(volume.exercises.map(\.setCount) == [3, 2, 3])
        #expect(volume.exercises.map(\.bodyweightSetCount) == [0, 0, 2])
    }

    @Test func repeatedSetsMultiply() throws {
        // Five identical sets of 5 × 102.5 kg: 5 × 5 × 102.5 = 2562.5 kg; one distinct weight.
        let sets = Array(repeating: WorkoutFixtures.kg(5, 102.5), count: 5)
        let volume = ExerciseVolume(ExerciseParams(name: "Squat", sets: sets), in: .kilogram)
        #expect(volume.volume == 2562.5)
        #expect(volume.weights == [102.5])
    }

    @Test func anExerciseWithoutSetsHasZeroVolume() {
        let volume = ExerciseVolume(ExerciseParams(name: "Plank", sets: []), in: .pound)
        #expect(volume.volume == 0)
        #expect(volume.weights == [])
        #expect(volume.setCount == 0)
    }
}
