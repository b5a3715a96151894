import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A function instance's process: spawned with `posix_spawn` in a process group of its own,
/// reaped with `wait4` so its real peak memory is known.
///
/// Like a Lambda sandbox, the group lives and dies as one: `kill` signals the whole group, and
/// when the process itself ends, anything it left running (a crash backtracer, a helper) is
/// killed too. Nothing a function starts outlives it, and no group outlives the process that
/// spawned it, however that process ends (`Lifeline`).
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

    /// Where the child's standard output and error go.
    public enum Output: Sendable {
        /// The emulator's own standard error: a function's output is its log.
        case emulatorStandardError
        /// A file, created or truncated.
        case file(String)
        /// An open descriptor of the emulator's, such as the write end of a pipe.
        case descriptor(Int32)
    }

    /// Linux's `SCHED_BATCH` policy (`<linux/sched.h>`), which Glibc's module leaves out
    /// without `_GNU_SOURCE`.
    static let schedBatch: Int32 = 3

    /// The child's process id, which is also its process group id.
    public let pid: pid_t
    private let exit: Task<Termination, Never>
    private let state: ReapState

    /// Spawns `executable` with exactly `environment` (nothing inherited) in `directory`.
    /// Standard input comes from `input` (default `/dev/null`).
    ///
    /// With `batchScheduling`, the process and every thread it starts run under Linux's
    /// `SCHED_BATCH`: the same share of the CPU as any other process at its nice level, but a
    /// wake-up (an event arriving) does not preempt whatever runs at that moment; it waits for
    /// the running thread's turn to end. Unprivileged, and inherited by the process's threads.
    public init(
        executable: String,
        arguments: [String] = [],
        environment: [String: String],
        directory: String,
        input: String = "/dev/null",
        output: Output = .emulatorStandardError,
        error: Output = .emulatorStandardError,
        batchScheduling: Bool = false
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        for (descriptor, destination) in [(Int32(1), output), (Int32(2), error)] {
            switch destination {
            case .emulatorStandardError:
                if descriptor != 2 { posix_spawn_file_actions_adddup2(&actions, 2, descriptor) }
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, descriptor, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            case .descriptor(let source):
                posix_spawn_file_actions_adddup2(&actions, source, descriptor)
            }
        }
        guard let addChdir = Self.addChdir, addChdir(&actions, directory) == 0 else {
            throw ChildProcessError.cannotSetDirectory(directory)
        }
        // Nothing else of ours leaks into the child: a descriptor opened without O_CLOEXEC (as
        // Foundation's copyItem opens its destination) would otherwise live as long as the
        // child, and a file held open for writing by any process cannot be executed (ETXTBSY).
        _ = Self.addCloseFrom?(&actions, 3)

        // A group of its own, default signal handling and an empty mask, whatever the emulator
        // itself ignores or blocks (it ignores SIGINT and SIGTERM to clean up on them).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        )

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        Lifeline.prepare()
        // Registered under the lock, so a signal handler that kills every group never misses one.
        let result = Self.live.withLock { live in
            // glibc's posix_spawnattr_setschedpolicy takes only POSIX's policies; a child
            // inherits the policy of the thread that spawns it, so that thread wears it meanwhile.
            let restore = batchScheduling ? Self.switchThisThread(to: Self.schedBatch) : nil
            defer { if let restore { Self.switchThisThread(to: restore.policy, restore.parameters) } }
            let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            if result == 0 {
                live.insert(pid)
                Lifeline.register(pid)
            }
            return result
        }
        guard result == 0 else { throw ChildProcessError.spawnFailed(executable: executable, code: result) }
        self.pid = pid
        let state = ReapState()
        self.state = state
        exit = Task.detached { await Self.reap(pid, state: state) }
    }

    /// Sets the calling thread's scheduling policy; returns the one it had, or nil when the
    /// change was refused (the child then runs under the usual policy).
    @discardableResult
    private static func switchThisThread(
        to policy: Int32, _ parameters: sched_param = sched_param()
    ) -> (policy: Int32, parameters: sched_param)? {
        var previous = sched_param()
        let previousPolicy = sched_getscheduler(0)
        guard previousPolicy >= 0, sched_getparam(0, &previous) == 0 else { return nil }
        var parameters = parameters
        guard sched_setscheduler(0, policy, &parameters) == 0 else { return nil }
        return (previousPolicy, previous)
    }

    /// Waits for the process to end.
    public func terminated() async -> Termination {
        await exit.value
    }

    /// Whether the process has ended, even if it is not reaped yet (a zombie): a warm instance
    /// killed from outside must not be handed an event in the moment before its reaping is
    /// noticed. One `waitid` that neither blocks nor reaps; asked under the reap lock, so the
    /// pid cannot have been reaped and reused in between.
    public var hasExited: Bool {
        state.reaped.withLock { reaped in
            if reaped { return true }
            var info = siginfo_t()
            guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return true }
            // Nothing to report leaves `info` zeroed; an ended child fills in SIGCHLD.
            return info.si_signo != 0
        }
    }

    /// Sends `signal` (SIGKILL by default) to the process's group, unless it has been reaped
    /// (its group was killed then, and the id may since belong to someone else).
    public func kill(_ signal: Int32 = SIGKILL) {
        state.reaped.withLock { reaped in
            if !reaped { _ = Glibc.kill(-pid, signal) }
        }
    }

    /// Process groups of children not yet reaped.
    private static let live = Mutex<Set<pid_t>>([])

    /// Keeps the signal sources alive for the life of the process.
    private static let signalSources = Mutex<[any DispatchSourceSignal]>([])
    /// Set when a termination signal is being handled (see `killChildrenOnTermination`).
    private static let terminating = Atomic<Bool>(false)

    /// On SIGINT, SIGTERM or SIGHUP, kills every child's group and reaps the children, then exits
    /// at once with 128 + the signal, so that stopping the emulator never leaves a function
    /// process behind, not even a zombie for whatever adopts it (in a container, PID 1 may never
    /// reap). Buffered standard output that is not a terminal may be lost, as with any process a
    /// signal ends.
    public static func killChildrenOnTermination() {
        signalSources.withLock { sources in
            guard sources.isEmpty else { return }
            // Once a signal is being handled, an `exit` on another thread (say 1, for the
            // invocation whose process the handler just killed) waits for the handler's `_exit`
            // instead of racing it: `_exit` runs no atexit handlers, `exit` does.
            atexit {
                guard ChildProcess.terminating.load(ordering: .acquiring) else { return }
                while true { pause() }
            }
            for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
                source.setEventHandler {
                    ChildProcess.terminating.store(true, ordering: .releasing)
                    let groups = live.withLock { groups in
                        for group in groups {
                            _ = Glibc.kill(-group, SIGKILL)
                            // Reaped below: its id may be reused once this process is gone.
                            Lifeline.unregister(group)
                        }
                        return groups
                    }
                    reapKilled(groups)
                    // `_exit`, not `exit`: the kills above end the children, and a thread that
                    // sees one go would otherwise race an exit of its own (say 1, for the failed
                    // invocation) against this one while `exit` runs its handlers.
                    Glibc._exit(128 + signalNumber)
                }
                source.resume()
                sources.append(source)
            }
        }
    }

    /// Reaps the children `pids`, just sent SIGKILL, waiting up to 10 s in all: a child's own
    /// reaping task may get there first (then `waitpid` finds none), which is as good. Each
    /// round looks at every child left, so one slow to die (in uninterruptible sleep on a busy
    /// disk) never keeps the others, already dead, from being reaped.
    private static func reapKilled(_ pids: Set<pid_t>) {
        let deadline = ContinuousClock.now + .seconds(10)
        var left = pids
        while !left.isEmpty {
            left = left.filter { waitpid($0, nil, WNOHANG) == 0 }
            guard !left.isEmpty, ContinuousClock.now < deadline else { return }
            usleep(500)
        }
    }

    typealias AddChdir =
        @convention(c) (
            UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>
        ) -> Int32

    /// `posix_spawn_file_actions_addchdir_np` (glibc 2.29+): Swift's Glibc module does not export it.
    static let addChdir: AddChdir? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np") else {
            return nil
        }
        return unsafeBitCast(symbol, to: AddChdir.self)
    }()

    typealias AddCloseFrom =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34+), looked up for the same reason;
    /// without it the child inherits what the parent did not mark close-on-exec.
    static let addCloseFrom: AddCloseFrom? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        else { return nil }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()

    /// Whether the child has been reaped, guarded so `kill` never races the reaping.
    private final class ReapState: Sendable {
        let reaped = Mutex(false)
    }

    private static func reap(_ pid: pid_t, state: ReapState) async -> Termination {
        await withCheckedContinuation { continuation in
            // Waiting blocks: give it a thread of its own rather than a cooperative-pool thread.
            let thread = Thread {
                // Wait for the exit without reaping: while the zombie stands, its pid and group
                // id are still ours, so the group can be killed safely before the reap.
                var info = siginfo_t()
                var waited: Int32
                repeat {
                    waited = waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT)
                } while waited < 0 && errno == EINTR
                var status: Int32 = 0
                var usage = rusage()
                state.reaped.withLock { reaped in
                    // Failed (ECHILD): the termination handler reaped it already, and the id
                    // may be someone else's now.
                    if waited == 0 { _ = Glibc.kill(-pid, SIGKILL) }
                    live.withLock { live in
                        live.remove(pid)
                        Lifeline.unregister(pid)
                    }
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
