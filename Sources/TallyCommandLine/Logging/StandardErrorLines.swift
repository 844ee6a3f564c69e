import Foundation
import Synchronization

/// Writes whole lines to standard error, one at a time, so that lines logged by different threads (the broker's
/// I/O thread, a worker's I/O threads, the cooperative pool) never interleave mid-line: a JSON line cut by
/// another is two lines no pipeline can parse.
///
/// Unbuffered on purpose: the last lines before a crash or a `kill -9` are the ones an operator needs.
package enum StandardErrorLines {
    private static let lock = Mutex(())

    /// Writes `line` (which ends with its newline) in full, retrying after partial writes and interruptions.
    package static func write(_ line: [UInt8]) {
        lock.withLock { _ in
            line.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = Foundation.write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                    if written > 0 {
                        offset += written
                    } else if written < 0, errno == EINTR {
                        continue
                    } else {
                        return  // standard error is gone (closed, full disk): nothing better to do with a log line
                    }
                }
            }
        }
    }
}
