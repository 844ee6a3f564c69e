/// Versions of the Tally protocol. Inside v1 evolution is additive (new optional fields, new methods, new error
/// codes; unknown fields are ignored). A breaking change would be v2, served side by side with v1.
public enum ProtocolVersion {
    /// The version this build speaks.
    public static let current = 1
    /// Every version this build serves.
    public static let supported = [1]
}
