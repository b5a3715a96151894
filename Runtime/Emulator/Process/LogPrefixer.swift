import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A pipe whose lines reach the emulator's standard error prefixed with a name: several
/// functions' logs on one terminal, each line saying whose it is.
///
/// It also keeps the last `LogPrefixer.tailBytes` of the child's output (without the prefix),
/// counted from its start, so that the log of one invocation can be read back (`tail(since:)`,
/// the Invoke API's `X-Amz-Log-Type: Tail`).
public final class LogPrefixer: Sendable {
    /// The end to give a child process (`ChildProcess.Output.descriptor`).
    public let writeEnd: Int32
    private let readEnd: Int32
    /// How much of the latest output is kept: Lambda's Tail returns the last 4 KB.
    public static let tailBytes = 4096
    /// How long the copier waits after a read that found lines before it reads again, in
    /// microseconds: under load it then takes many lines per wake-up, and a function's write
    /// seldom has a sleeping reader to wake. A quiet pipe's first line is read at once.
    static let pauseMicroseconds: UInt32 = 10_000
    private let recent = Recent()

    /// The latest output, and how many bytes came in all: shared with the reader thread.
    final class Recent: Sendable {
        struct State {
            var bytes: [UInt8] = []
            var total = 0
        }

        let state = Mutex(State())

        func append(_ line: some Collection<UInt8>) {
            state.withLock { state in
                state.bytes += line
                state.total += line.count
                if state.bytes.count > 2 * LogPrefixer.tailBytes {
                    state.bytes.removeFirst(state.bytes.count - LogPrefixer.tailBytes)
                }
            }
        }
    }

    /// Starts a pipe and a thread that copies it, line by line, behind `prefix`.
    ///
    /// The thread runs under `SCHED_BATCH`, as the instances do (`ChildProcess`): woken by a
    /// line, it waits for the running thread's turn instead of preempting it, and the thread it
    /// preempted was most often the emulator's loop, which every request waits on. Under
    /// `Benchmarks/start-api.py`'s load that was 6-13% of the requests per second. After a read
    /// that found lines it pauses (`pauseMicroseconds`) before reading again: 1-13% more.
    public convenience init(prefix: String) throws {
        try self.init(prefix: prefix, destination: STDERR_FILENO)
    }

    /// `init(prefix:)`, copying to `destination` instead of standard error (for tests).
    init(prefix: String, destination: Int32) throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw LogPrefixerError.noPipe(errno) }
        // Not inherited by other children spawned meanwhile; the child gets its copy by dup2.
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        readEnd = ends[0]
        writeEnd = ends[1]
        let source = ends[0]
        let lead = Array(prefix.utf8)
        let recent = recent
        Thread.detachNewThread {
            var parameters = sched_param()
            _ = sched_setscheduler(0, ChildProcess.schedBatch, &parameters)  // this thread only
            Self.copy(from: source, to: destination, prefix: lead, recent: recent)
            close(source)
        }
    }

    /// Copies `source` to `destination` until its end: the whole lines of each read in one
    /// write, each behind `prefix`; a last line without its newline gets one.
    private static func copy(from source: Int32, to destination: Int32, prefix: [UInt8], recent: Recent) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            pending += buffer[..<count]
            guard let last = pending.lastIndex(of: UInt8(ascii: "\n")) else { continue }
            write(prefixed(pending[...last], with: prefix), to: destination)
            recent.append(pending[...last])
            pending.removeSubrange(...last)
            // A full read means more is waiting: read on without a pause.
            if count < buffer.count { usleep(pauseMicroseconds) }
        }
        if !pending.isEmpty { write(prefixed(pending + [UInt8(ascii: "\n")], with: prefix), to: destination) }
    }

    /// `lines` (each ending in a newline) with `prefix` before each.
    static func prefixed(_ lines: some Collection<UInt8>, with prefix: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(lines.count + 2 * prefix.count)
        var start = lines.startIndex
        while start != lines.endIndex {
            let end =
                lines[start...].firstIndex(of: UInt8(ascii: "\n")).map { lines.index(after: $0) } ?? lines.endIndex
            output += prefix
            output += lines[start..<end]
            start = end
        }
        return output
    }

    /// How many bytes of whole lines have been read so far: a mark for `tail(since:)`.
    public var mark: Int { recent.state.withLock { $0.total } }

    /// The output's whole lines since `mark`, at most the last `tailBytes`. Waits a moment
    /// (up to 100 ms) for what the child has written but the reader has not taken yet.
    public func tail(since mark: Int) async -> [UInt8] {
        for _ in 0..<100 {
            var waiting: Int32 = 0
            guard ioctl(readEnd, UInt(FIONREAD), &waiting) == 0, waiting > 0 else { break }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return recent.state.withLock { recent in
            let new = min(recent.total - mark, recent.bytes.count)
            return Array(recent.bytes.suffix(min(new, Self.tailBytes)))
        }
    }

    /// Closes the emulator's copy of the write end once the child has its own: the reader then
    /// ends when the child does.
    public func childStarted() {
        close(writeEnd)
    }

    /// Writes every byte, across short writes; gives up on an error (a closed terminal), as a
    /// log line is not worth failing over.
    private static func write(_ bytes: [UInt8], to destination: Int32) {
        bytes.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(destination, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                if written <= 0 { return }
                offset += written
            }
        }
    }
}

/// The pipe could not be made.
public enum LogPrefixerError: Error, CustomStringConvertible {
    case noPipe(Int32)

    public var description: String {
        switch self {
        case .noPipe(let code): "cannot make a pipe for a function's log: \(String(cString: strerror(code)))"
        }
    }
}
