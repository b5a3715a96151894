import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A function instance's process: spawned with `posix_spawn`, reaped with `wait4` so its real
/// peak memory is known, its standard output and error sent to the emulator's standard error.
public final class ChildProcess: Sendable {
    /// How a process ended, with its peak resident memory.
    public struct Termination: Sendable, Equatable {
        public enum Reason: Sendable, Equatable {
            case exited(Int32)
            case signaled(Int32)
        }

        public let reason: Reason
        /// `ru_maxrss` of the child, in bytes.
        public let maxResidentBytes: Int

        /// The words Lambda uses: `exit status 1`, `signal: killed`.
        public var lambdaDescription: String {
            switch reason {
            case .exited(let code): return "exit status \(code)"
            case .signaled(let signal):
                let names: [Int32: String] = [
                    SIGKILL: "killed", SIGSEGV: "segmentation fault", SIGABRT: "aborted", SIGTERM: "terminated",
                    SIGILL: "illegal instruction", SIGBUS: "bus error", SIGTRAP: "trace/breakpoint trap",
                ]
                return "signal: \(names[signal] ?? String(signal))"
            }
        }
    }

    /// The child's process id.
    public let pid: pid_t
    private let exit: Task<Termination, Never>
    private let state: ReapState

    /// Spawns `executable` with exactly `environment` (nothing inherited) in `directory`.
    public init(executable: String, arguments: [String] = [], environment: [String: String], directory: String) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        // The function's own output is its log: it goes where the emulator's logs go.
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        guard let addChdir = Self.addChdir, addChdir(&actions, directory) == 0 else {
            throw ChildProcessError.cannotSetDirectory(directory)
        }

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard result == 0 else { throw ChildProcessError.spawnFailed(executable: executable, code: result) }
        self.pid = pid
        let state = ReapState()
        self.state = state
        exit = Task.detached { await Self.reap(pid, state: state) }
    }

    /// Waits for the process to end.
    public func terminated() async -> Termination {
        await exit.value
    }

    /// Sends `signal` (SIGKILL by default) unless the process has already been reaped.
    public func kill(_ signal: Int32 = SIGKILL) {
        // Once reaped, the pid may belong to an unrelated process: signal only while it is ours.
        state.reaped.withLock { reaped in
            if !reaped { _ = Glibc.kill(pid, signal) }
        }
    }

    private typealias AddChdir =
        @convention(c) (
            UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>
        ) -> Int32

    /// `posix_spawn_file_actions_addchdir_np` (glibc 2.29+): Swift's Glibc module does not export it.
    private static let addChdir: AddChdir? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np") else {
            return nil
        }
        return unsafeBitCast(symbol, to: AddChdir.self)
    }()

    /// Whether the child has been reaped, guarded so `kill` never races the reaping.
    private final class ReapState: Sendable {
        let reaped = Mutex(false)
    }

    private static func reap(_ pid: pid_t, state: ReapState) async -> Termination {
        await withCheckedContinuation { continuation in
            // Waiting blocks: give it a thread of its own rather than a cooperative-pool thread.
            let thread = Thread {
                // Wait for the exit without reaping (the zombie keeps the pid ours), then reap
                // under the lock that `kill` takes.
                var info = siginfo_t()
                while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
                var status: Int32 = 0
                var usage = rusage()
                state.reaped.withLock { reaped in
                    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
                    reaped = true
                }
                let signal = status & 0x7f
                let reason: Termination.Reason = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
                continuation.resume(
                    returning: Termination(reason: reason, maxResidentBytes: Int(usage.ru_maxrss) * 1024))
            }
            thread.start()
        }
    }
}

/// The process could not be started.
public enum ChildProcessError: Error, CustomStringConvertible {
    case spawnFailed(executable: String, code: Int32)
    case cannotSetDirectory(String)

    public var description: String {
        switch self {
        case .spawnFailed(let executable, let code): "cannot start \(executable): \(String(cString: strerror(code)))"
        case .cannotSetDirectory(let directory):
            "cannot start a process in \(directory): this C library lacks posix_spawn_file_actions_addchdir_np"
        }
    }
}
