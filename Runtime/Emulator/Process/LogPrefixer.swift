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
    let recent = Recent()

    /// The latest output, how many bytes came in all, and whether the reader holds bytes it
    /// has taken from the pipe but not added yet: shared with the reader thread.
    final class Recent: Sendable {
        struct State {
            var bytes: [UInt8] = []
            var total = 0
            var reading = false
        }

        let state = Mutex(State())

        /// Called before each read: from then until `endRead`, what left the pipe may not be
        /// here yet.
        func beginRead() {
            state.withLock { $0.reading = true }
        }

        /// Adds `lines` (whole lines, possibly none) and ends the read.
        func endRead(appending lines: some Collection<UInt8>) {
            state.withLock { state in
                state.bytes += lines
                state.total += lines.count
                if state.bytes.count > 2 * LogPrefixer.tailBytes {
                    state.bytes.removeFirst(state.bytes.count - LogPrefixer.tailBytes)
                }
                state.reading = false
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

    /// Copies `source` to `destination` until its end: the whole lines of each read, each
    /// behind `prefix`, in as few writes as `pieces` allows; a last line without its newline
    /// gets one. Lines reach `recent` before `destination`.
    private static func copy(from source: Int32, to destination: Int32, prefix: [UInt8], recent: Recent) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while waitForInput(source) {
            recent.beginRead()
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            let failure = count < 0 ? errno : 0
            if count > 0 { pending += buffer[..<count] }
            let last = count > 0 ? pending.lastIndex(of: UInt8(ascii: "\n")) : nil
            recent.endRead(appending: last.map { pending[...$0] } ?? [])
            if failure == EINTR { continue }
            if count <= 0 { break }
            guard let last else { continue }
            for piece in pieces(pending[...last], prefix: prefix) { write(piece, to: destination) }
            pending.removeSubrange(...last)
            // A full read means more is waiting: read on without a pause.
            if count < buffer.count { usleep(pauseMicroseconds) }
        }
        if !pending.isEmpty {
            for piece in pieces(pending + [UInt8(ascii: "\n")], prefix: prefix) { write(piece, to: destination) }
        }
    }

    /// Waits until `source` can be read (or has ended); false if it cannot be waited on. The
    /// reader waits here rather than in `read`, so that `Recent.beginRead` can come before
    /// the bytes leave the pipe.
    private static func waitForInput(_ source: Int32) -> Bool {
        var descriptor = pollfd(fd: source, events: Int16(POLLIN), revents: 0)
        while true {
            if poll(&descriptor, 1, -1) >= 0 { return true }
            if errno != EINTR { return false }
        }
    }

    /// `lines` (each ending in a newline) with `prefix` before each, in pieces of whole lines of
    /// at most `limit` bytes (a longer line is a piece of its own). Each piece is one `write`,
    /// and a pipe takes a write of up to `PIPE_BUF` (4096) bytes whole, so copiers that share
    /// the emulator's standard error never interleave inside a line, as when each line was a
    /// write of its own.
    static func pieces(_ lines: some Collection<UInt8>, prefix: [UInt8], limit: Int = 4096) -> [[UInt8]] {
        var pieces: [[UInt8]] = []
        var piece: [UInt8] = []
        var start = lines.startIndex
        while start != lines.endIndex {
            let end =
                lines[start...].firstIndex(of: UInt8(ascii: "\n")).map { lines.index(after: $0) } ?? lines.endIndex
            let line = lines[start..<end]
            if !piece.isEmpty, piece.count + prefix.count + line.count > limit {
                pieces.append(piece)
                piece = []
            }
            piece += prefix
            piece += line
            start = end
        }
        if !piece.isEmpty { pieces.append(piece) }
        return pieces
    }

    /// How many bytes of whole lines have been read so far: a mark for `tail(since:)`.
    public var mark: Int { recent.state.withLock { $0.total } }

    /// The output's whole lines since `mark`, at most the last `tailBytes`. Waits a moment
    /// (up to 100 ms) for what the child has written but the reader has not added yet
    /// (`hasOutputToAdd`).
    public func tail(since mark: Int) async -> [UInt8] {
        for _ in 0..<100 where hasOutputToAdd {
            try? await Task.sleep(for: .milliseconds(1))
        }
        return recent.state.withLock { recent in
            let new = min(recent.total - mark, recent.bytes.count)
            return Array(recent.bytes.suffix(min(new, Self.tailBytes)))
        }
    }

    /// True while output the child has written is not in the tail yet: bytes still in the
    /// pipe, or taken from it by a read that has not ended. The pipe is asked first: bytes gone
    /// from it were taken by a read that began before, so a read found ended afterwards has
    /// added them.
    var hasOutputToAdd: Bool {
        var waiting: Int32 = 0
        if ioctl(readEnd, UInt(FIONREAD), &waiting) == 0, waiting > 0 { return true }
        return recent.state.withLock { $0.reading }
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
