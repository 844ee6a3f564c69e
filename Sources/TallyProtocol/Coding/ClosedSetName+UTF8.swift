import TallyJSONCoding

extension CaseIterable where Self: RawRepresentable, RawValue == String {
    /// The case whose name the UTF-8 `bytes` spell, or `nil`: how the generated direct reads match a closed set's
    /// name where it lies, without building a `String` (`JSONCursor.text`). A set read by the thousand has a
    /// faster one of its own (`WeightUnit`'s), which Swift prefers to this one.
    init?(utf8Symbol bytes: UnsafeBufferPointer<UInt8>) {
        guard let named = Self.allCases.first(where: { $0.rawValue.utf8.elementsEqual(bytes) }) else { return nil }
        self = named
    }
}
