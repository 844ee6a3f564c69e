import Foundation
import TallyTesting
import Testing

/// Keeps deploy/ valid: runs `deploy/check` (systemd-analyze verify, the Dockerfile parser, the Compose and
/// Kubernetes schemas, Tally's own cross-checks) so that a change to a setting or a manifest that breaks a
/// deployment fails CI here rather than on a host. A validator that is not installed is skipped by the script
/// with a message (`scripts/install-dependencies --test` installs them all).
@Suite struct DeployChecksTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func deploymentFilesPassEveryInstalledValidator() async throws {
        let check = try ManagedProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["bash", Self.repositoryRoot.appendingPathComponent("deploy/check").path], name: "deploy-check")
        let status = await check.waitForExit(timeout: .seconds(120))
        let report = check.output.joined(separator: "\n")
        #expect(status == 0, "deploy/check failed:\n\(report)\n\(check.errorOutput)")
        #expect(report.contains("deploy/check: 0 failed"), "\(report)")
    }
}
