import Foundation

/// The JSON coders every Tally component uses, configured once: keys are spelled out by each type's
/// `CodingKeys` (snake_case on the wire), and non-finite numbers are refused rather than invented.
public enum TallyJSON {
    /// A new encoder for response or request bodies.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }

    /// A new decoder for request or response bodies.
    public static func decoder() -> JSONDecoder {
        JSONDecoder()
    }

    /// Rounds a ratio or measure for the wire, so that responses are readable and stable (`0.8333`, not
    /// `0.8333333333333334`).
    public static func rounded(_ value: Double, places: Int = 4) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }
}
