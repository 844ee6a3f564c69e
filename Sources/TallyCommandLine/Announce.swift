import Foundation

/// Writes one line to standard output at once (unbuffered), for scripts and tests that wait for a process to say
/// it is ready.
package func announce(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
