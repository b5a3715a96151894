import Foundation
import NIOCore

/// The warm instances of one function: an event goes to an idle instance, or to a new one
/// while fewer than `limit` run (a cold start), or waits up to `queueTimeout` for one to come
/// free before it is throttled. An instance that times out, crashes or fails to initialise is
/// stopped and forgotten; the next event starts a fresh one.
///
/// A rebuilt binary is noticed at the next event: idle instances of the old build stop, busy
/// ones finish their event and then stop, and new events go to instances of the new build.
public actor FunctionPool {
    /// What an invocation through the pool came to.
    public struct Result: Sendable {
        public let outcome: InvocationOutcome
        /// Whether a new instance was started for it.
        public let cold: Bool
        /// Which instance ran it (1, 2, ...), for the log.
        public let instance: Int
        /// The lines the function wrote during the invocation (the last 4 KB), when asked for
        /// and its output is prefixed.
        public var log: [UInt8]? = nil
    }

    public let function: FunctionDefinition
    public let limit: Int
    public let queueTimeout: Duration
    private let executable: String
    private let environment: @Sendable (String) -> [String: String]
    private let prefixLogs: Bool
    private let notice: @Sendable (String) -> Void

    /// What a waiting event is woken with.
    private enum Wake: Sendable {
        case instance(WarmInstance)
        /// An instance died: there may be room to start one.
        case retry
        case timedOut
    }

    /// Instances waiting for an event, oldest first, with when they came free.
    private var idle: [(instance: WarmInstance, since: ContinuousClock.Instant)] = []
    private var starting = 0
    private var started = 0
    /// Events waiting for an instance, oldest first; all wait the same `queueTimeout`, so their
    /// deadlines come in this order too.
    private var waiters: [(deadline: ContinuousClock.Instant, continuation: CheckedContinuation<Wake, Never>)] = []
    /// Times out the oldest waiter; runs while any wait.
    private var expiry: Task<Void, Never>?
    private var stopped = false
    private var all: [Int: WarmInstance] = [:]
    /// An instance started ahead of the event expected to use it (`startEarly`), until that
    /// event, or any other, claims it; unclaimed, it joins the idle ones when it is up.
    private var early: Task<WarmInstance, any Error>?
    /// The binary's signature when it was last looked at, and how many builds have been seen.
    private var signature: ExecutableSignature?
    private var generation = 0

    public init(
        function: FunctionDefinition, executable: String, limit: Int, queueTimeout: Duration = .seconds(2),
        prefixLogs: Bool = true, notice: @escaping @Sendable (String) -> Void = { _ in },
        environment: @escaping @Sendable (String) -> [String: String]
    ) {
        self.notice = notice
        self.signature = ExecutableSignature(path: executable)
        self.function = function
        self.executable = executable
        self.limit = max(0, limit)
        self.queueTimeout = queueTimeout
        self.prefixLogs = prefixLogs
        self.environment = environment
    }

    /// Instances alive now, busy or idle.
    public var instanceCount: Int { all.count }

    /// Runs `payload`; `nil` when every instance stayed busy for `queueTimeout` (throttled).
    /// `capturingLog`: the result carries the lines the function wrote meanwhile.
    public func invoke(_ payload: ByteBuffer, requestID: String, capturingLog: Bool = false) async throws -> Result? {
        guard limit > 0 else { return nil }  // reserved concurrency 0: every event is throttled
        noticeRebuild()
        var instance: WarmInstance
        var cold = false
        acquiring: while true {
            guard !stopped else { return Result(outcome: .cancelled, cold: false, instance: 0) }
            if let warm = idle.popLast()?.instance {
                guard warm.isAlive else {
                    // It died while idle: forget it and look again, as Lambda would.
                    all[warm.number] = nil
                    await warm.stop()
                    continue acquiring
                }
                instance = warm
                break acquiring
            }
            if let early {
                // Claimed before the suspension, so no other event takes the same instance.
                self.early = nil
                instance = try await early.value
                cold = true
                break acquiring
            }
            if all.count + starting < limit {
                instance = try await startInstance()
                cold = true
                break acquiring
            }
            switch await waitForIdle() {
            case .instance(let freed):
                instance = freed
                break acquiring
            case .retry: continue acquiring
            case .timedOut: return nil
            }
        }
        let invocation = Invocation(
            requestID: requestID, payload: payload,
            invokedFunctionARN: "arn:aws:lambda:us-east-1:123456789012:function:\(function.name)",
            timeout: .milliseconds(Int64(function.timeoutSeconds * 1000)))
        let mark = capturingLog ? instance.logs?.mark : nil
        let (outcome, delivered) = await instance.invoke(invocation)
        if !delivered, !cold, case .exited = outcome {
            // A warm instance that died before taking the event: the event is still unsent, so
            // it goes to another instance, as Lambda would never have noticed.
            all[instance.number] = nil
            await instance.stop()
            return try await invoke(payload, requestID: requestID, capturingLog: capturingLog)
        }
        var log: [UInt8]?
        if let mark, let logs = instance.logs { log = await logs.tail(since: mark) }
        switch outcome {
        case .response, .functionError, .responseTooLarge:
            hand(back: instance)
        case .timedOut, .exited, .initError, .cancelled:
            all[instance.number] = nil
            await instance.stop()
            wakeForFreedSlot()
        }
        return Result(outcome: outcome, cold: cold, instance: instance.number, log: log)
    }

    /// Starts the next instance and counts it among `all`. Its slot is taken before the first
    /// suspension, so concurrent events cannot start more than `limit` instances between them.
    ///
    /// A binary that is still open for writing somewhere (a linker finishing it; a process forked
    /// in the middle of copying it) cannot be executed yet (ETXTBSY): that is waited out for up
    /// to 2 s rather than failing the event.
    private func startInstance() async throws -> WarmInstance {
        starting += 1
        defer { starting -= 1 }
        started += 1
        let number = started
        let deadline = ContinuousClock.now + .seconds(2)
        while true {
            do {
                let instance = try await WarmInstance.start(
                    number: number, generation: generation, executable: executable, environment: environment,
                    logPrefix: prefixLogs ? "\(function.name) #\(number) | " : nil)
                all[number] = instance
                return instance
            } catch ChildProcessError.spawnFailed(_, let code) where code == ETXTBSY && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    /// An instance stopped for good: whoever waits may start a fresh one in its place.
    private func wakeForFreedSlot() {
        if !waiters.isEmpty { waiters.removeFirst().continuation.resume(returning: .retry) }
    }

    /// Starts one instance ahead of the first event (`--warm-containers EAGER`), unless one runs.
    public func prewarm() async throws {
        guard limit > 0, all.isEmpty, starting == 0, !stopped else { return }
        hand(back: try await startInstance())
    }

    /// Starts an instance now for an event that is on its way (a request still at its
    /// authorizer), when none is idle or already starting early: the event's cold start then
    /// overlaps the authorizer's instead of following it.
    public func startEarly() {
        guard limit > 0, idle.isEmpty, early == nil, all.count + starting < limit, !stopped else { return }
        let task = Task { try await self.startInstance() }
        early = task
        Task { await self.settleEarly(task) }
    }

    /// An early instance nobody claimed joins the idle ones; one that failed to start is
    /// forgotten (the event that comes starts its own and reports the failure).
    private func settleEarly(_ task: Task<WarmInstance, any Error>) async {
        let instance = try? await task.value
        guard early == task else { return }
        early = nil
        guard let instance else { return }
        if stopped {
            all[instance.number] = nil
            await instance.stop()
        } else {
            hand(back: instance)
        }
    }

    /// Stops the instances that have waited for an event longer than `idleTime`, oldest first,
    /// while more than `minimum` instances run. Returns how many it stopped.
    @discardableResult
    public func reap(idleFor idleTime: Duration, keeping minimum: Int) async -> Int {
        let now = ContinuousClock.now
        var reaped: [(WarmInstance, Duration)] = []
        let alive = all.count
        idle.removeAll { entry in
            let waited = now - entry.since
            guard alive - reaped.count > minimum, waited >= idleTime else { return false }
            reaped.append((entry.instance, waited))
            return true
        }
        for (instance, waited) in reaped {
            all[instance.number] = nil
            notice(
                "\(function.name) #\(instance.number) stopped after \(String(format: "%.1f", waited.seconds)) s idle"
            )
            await instance.stop()
        }
        return reaped.count
    }

    /// Stops every instance; later invocations are cancelled.
    public func stop() async {
        stopped = true
        for waiter in waiters { waiter.continuation.resume(returning: .retry) }
        waiters.removeAll()
        expiry?.cancel()
        let instances = Array(all.values)
        all.removeAll()
        idle.removeAll()
        for instance in instances { await instance.stop() }
    }

    /// Retires the instances of an older build when the binary has changed since last looked at.
    private func noticeRebuild() {
        guard let current = ExecutableSignature(path: executable), current != signature else { return }
        signature = current
        generation += 1
        let retired = idle.map(\.instance)
        idle.removeAll()
        for instance in retired { all[instance.number] = nil }
        notice(
            "\(function.name): the binary changed; new instances run it\(retired.isEmpty ? "" : " (\(retired.count) idle stopped)")"
        )
        Task { for instance in retired { await instance.stop() } }
    }

    private func hand(back instance: WarmInstance) {
        guard instance.generation == generation else {
            // An instance of an older build finished its event: it stops, and its slot is free.
            all[instance.number] = nil
            Task { await instance.stop() }
            wakeForFreedSlot()
            return
        }
        if let waiter = waiters.first {
            waiters.removeFirst()
            waiter.continuation.resume(returning: .instance(instance))
        } else {
            idle.append((instance, .now))
        }
    }

    /// Waits for an instance to come free, at most `queueTimeout`.
    private func waitForIdle() async -> Wake {
        let deadline = ContinuousClock.now + queueTimeout
        // One task sleeps until the oldest deadline, however many events wait: with every instance
        // busy, each event waits here, and a timer per event (scheduled on an event loop, then
        // cancelled from another thread) cost more than the wait's bookkeeping itself.
        if expiry == nil { expiry = Task { await self.expireWaiters() } }
        return await withCheckedContinuation { continuation in
            waiters.append((deadline, continuation))
        }
    }

    /// Throttles waiters whose deadline has passed, oldest first, until none wait.
    private func expireWaiters() async {
        while let oldest = waiters.first?.deadline, !Task.isCancelled {
            if ContinuousClock.now >= oldest {
                waiters.removeFirst().continuation.resume(returning: .timedOut)
            } else {
                try? await Task.sleep(until: oldest, clock: .continuous)
            }
        }
        expiry = nil
    }
}
