import Foundation
import NIOCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One execution environment kept warm: a process of the function's binary on a Runtime API of
/// its own, taking one event at a time for as long as it lives.
final class WarmInstance: Sendable {
    let session: RuntimeSession
    let server: RuntimeAPIServer
    let child: ChildProcess
    let number: Int
    /// Which build of the binary it runs (the pool's count of binaries seen).
    let generation: Int
    /// When the process was spawned: where a cold start's init duration counts from.
    let spawnedAt: ContinuousClock.Instant
    /// Its output's copier, when its lines are prefixed: where an invocation's log is read back.
    let logs: LogPrefixer?
    private let watcher: Task<ChildProcess.Termination, Never>
    private let exited: ExitFlag

    /// Set by the watcher when the process ends; a class so the watcher can hold it.
    private final class ExitFlag: Sendable {
        let value = Mutex(false)
    }

    /// False once the process has ended (a crash between events, a kill from outside).
    var isAlive: Bool { !exited.value.withLock { $0 } && !child.hasExited }

    /// Starts the process; it initialises on its own, and its first `/next` waits for an event.
    /// With a `logPrefix`, its output reaches the emulator's standard error line by line behind
    /// it; without, unchanged. `batchScheduling` is for instances that share the machine with the
    /// emulator's loop (see below); a lone invocation runs without it.
    static func start(
        number: Int, generation: Int = 0, executable: String, environment: (String) -> [String: String],
        logPrefix: String?, batchScheduling: Bool = true
    ) async throws -> WarmInstance {
        let session = RuntimeSession()
        let server = try await RuntimeAPIServer.start(session: session)
        let child: ChildProcess
        let spawnedAt = ContinuousClock.now
        let prefixer: LogPrefixer?
        do {
            prefixer = try logPrefix.map { try LogPrefixer(prefix: $0) }
            let output = prefixer.map { ChildProcess.Output.descriptor($0.writeEnd) } ?? .emulatorStandardError
            defer { prefixer?.childStarted() }
            // Batch scheduling: an instance woken by its event waits for the running thread's
            // turn rather than preempting it. When that thread is the emulator's loop, which
            // every instance waits on, preempting it stalled them all and left cores idle.
            child = try ChildProcess(
                executable: executable, environment: environment(server.address),
                directory: URL(fileURLWithPath: executable).deletingLastPathComponent().path, output: output,
                error: output, batchScheduling: batchScheduling)
        } catch {
            session.end(.cancelled)
            await server.stop()
            throw error
        }
        return WarmInstance(
            session: session, server: server, child: child, number: number, generation: generation,
            spawnedAt: spawnedAt, logs: prefixer)
    }

    private init(
        session: RuntimeSession, server: RuntimeAPIServer, child: ChildProcess, number: Int, generation: Int,
        spawnedAt: ContinuousClock.Instant, logs: LogPrefixer?
    ) {
        self.logs = logs
        self.session = session
        self.spawnedAt = spawnedAt
        self.server = server
        self.child = child
        self.number = number
        self.generation = generation
        let exited = ExitFlag()
        self.exited = exited
        watcher = Task {
            let termination = await child.terminated()
            exited.value.withLock { $0 = true }
            session.end(.exited(termination))
            return termination
        }
    }

    /// Runs one invocation; the outcome says whether the instance can take another, and
    /// `delivered` whether the runtime ever took the event.
    func invoke(_ invocation: Invocation) async -> (outcome: InvocationOutcome, delivered: Bool) {
        let (outcome, timing) = await session.invoke(invocation)
        return (outcome, timing.handedOut != nil)
    }

    /// Stops the process and the Runtime API; waits for both. The process is killed before its
    /// parked `/next` is released, so it never sees the shutdown.
    @discardableResult
    func stop() async -> ChildProcess.Termination {
        child.kill(SIGKILL)
        let termination = await watcher.value
        session.end(.cancelled)
        await server.stop()
        return termination
    }
}
