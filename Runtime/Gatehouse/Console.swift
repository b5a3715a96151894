import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where the CLI writes: results on standard output, everything else on standard error.
enum Console {
    /// One line on standard error, in one `write` where it fits: start-api writes an access-log
    /// line per request, and `FileHandle` with a `Data` per line cost twice as much.
    static func error(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { writeAll($0, to: STDERR_FILENO) }
    }

    static func output(_ bytes: some Sequence<UInt8>) {
        FileHandle.standardOutput.write(Data(bytes))
    }

    static func output(_ line: String) {
        output(Array((line + "\n").utf8))
    }

    /// Writes every byte, across short writes and interruptions; gives up on any other error
    /// (a closed terminal), as a log line is not worth failing over.
    private static func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) {
        guard var next = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = write(descriptor, next, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            next += written
            remaining -= written
        }
    }
}
