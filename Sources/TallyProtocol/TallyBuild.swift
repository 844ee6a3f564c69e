/// The version of this Tally build, reported by `system.ping` and `--version`.
public enum TallyBuild {
    public static let version = "0.1.0"
}
