/// The version of this Tally build, reported by `system.ping` and `--version`.
public enum TallyBuild {
    /// This build's version, the one the repository's VERSION file declares: `server_version` in `system.ping` and
    /// `system.describe`, and what the executables' `--version` print.
    public static let version = "0.1.0"
}
