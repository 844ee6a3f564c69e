import Foundation

/// Debian's Chromium, headless, as the end-to-end tests' browser: it loads a page, lets its scripts run for a
/// budget of virtual time (timers and fetches included) and prints the DOM they left (`--dump-dom`), or a
/// screenshot. No DevTools session is needed for what the console's tests read.
///
/// `scripts/install-dependencies --test` installs it (the `chromium` package). A test that needs it and cannot
/// start it fails, saying why: a console test that passed without a browser would prove nothing.
package enum HeadlessBrowser {
    /// Why the browser could not be used.
    package struct Unavailable: Error, CustomStringConvertible {
        package let description: String
    }

    /// The browser's executable: `TALLY_CHROMIUM`, else `chromium` (Debian) or `chromium-browser` on the path.
    package static var executable: URL? {
        if let given = ProcessInfo.processInfo.environment["TALLY_CHROMIUM"], !given.isEmpty {
            return URL(fileURLWithPath: given)
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            for name in ["chromium", "chromium-browser"] {
                let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            }
        }
        return nil
    }

    /// The DOM of `url` after its scripts ran for `budget` of virtual time (a page that refreshes every second
    /// refreshes about `budget` seconds' worth, however slow the machine).
    /// - Throws: `Unavailable` when there is no browser or it printed no document (its error output is in the
    ///   message).
    package static func dumpDOM(_ url: String, budget: Duration = .seconds(3)) async throws -> String {
        let result = try await run([
            "--dump-dom", "--virtual-time-budget=\(milliseconds(budget))", url,
        ])
        guard result.output.contains("</html>") else {
            throw Unavailable(
                description:
                    "chromium printed no document for \(url) (status \(result.status.map(String.init) ?? "killed")): "
                    + String(result.errorOutput.suffix(2000)))
        }
        return result.output
    }

    /// A PNG of `url` at `width`×`height` after its scripts ran for `budget` of virtual time.
    package static func screenshot(
        _ url: String, to file: URL, width: Int = 1280, height: Int = 1000, budget: Duration = .seconds(3)
    ) async throws {
        let result = try await run([
            "--screenshot=\(file.path)", "--window-size=\(width),\(height)", "--hide-scrollbars",
            "--virtual-time-budget=\(milliseconds(budget))", url,
        ])
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw Unavailable(description: "chromium wrote no screenshot: " + String(result.errorOutput.suffix(2000)))
        }
    }

    /// Runs the browser headless with a profile of its own (several may run at once) and the sandbox off (it
    /// cannot start as root with it, and CI runs as root).
    static func run(_ arguments: [String]) async throws -> ShortCommand.Result {
        guard let executable else {
            throw Unavailable(
                description: "no chromium on PATH (nor TALLY_CHROMIUM): scripts/install-dependencies --test installs "
                    + "Debian's chromium package, which the console's browser tests need")
        }
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tally-chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        return try await ShortCommand.run(
            executable,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--disable-extensions", "--disable-background-networking", "--user-data-dir=\(profile.path)",
            ] + arguments, timeout: .seconds(90))
    }

    static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
