import Foundation

/// Where the built `tally-broker`, `tally-worker`, `tally`, `tally-load` and `tally-gateway` executables are: `TALLY_BIN_DIR` if set,
/// else next to the running test binary (SwiftPM puts every product of a build in one directory).
package enum TallyBinaries {
    package static var directory: URL {
        if let override = ProcessInfo.processInfo.environment["TALLY_BIN_DIR"] {
            return URL(fileURLWithPath: override)
        }
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
        // On Linux the test runner is `<bin>/TallyPackageTests.xctest`; on macOS it is inside a bundle.
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("tally-broker").path),
            directory.pathComponents.count > 1
        {
            directory = directory.deletingLastPathComponent()
        }
        return directory
    }

    package static var broker: URL { directory.appendingPathComponent("tally-broker") }
    package static var worker: URL { directory.appendingPathComponent("tally-worker") }
    package static var cli: URL { directory.appendingPathComponent("tally") }
    package static var load: URL { directory.appendingPathComponent("tally-load") }
    package static var gateway: URL { directory.appendingPathComponent("tally-gateway") }
}
