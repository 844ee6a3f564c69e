import TallyProtocol

/// Users log in either unit and may mix them within one workout (a barbell in kg, a dumbbell in lb), so every
/// weight keeps its own unit until the moment it is reported, and is converted exactly once.
extension WeightUnit {
    /// The international avoirdupois pound, exactly.
    package static let kilogramsPerPound = 0.45359237

    /// `value`, given in `unit`, expressed in this unit.
    package func converting(_ value: Double, from unit: WeightUnit) -> Double {
        switch (unit, self) {
        case (.kilogram, .kilogram), (.pound, .pound): value
        case (.pound, .kilogram): value * Self.kilogramsPerPound
        case (.kilogram, .pound): value / Self.kilogramsPerPound
        }
    }
}
