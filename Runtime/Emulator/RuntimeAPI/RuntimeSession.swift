import NIOCore

/// The state of one execution environment's Runtime API: events waiting to be handed out, the
/// invocation the runtime is working on, and who is waiting for its outcome.
///
/// The runtime side calls `next`, `postResponse`, `postError` and `postInitError` (through the
/// HTTP server); the emulator side calls `invoke` and, when the process ends or must be stopped,
/// `end`. Every waiter is resumed exactly once, whatever happens first.
public actor RuntimeSession {
    /// When an invocation was handed out and when it ended, for `Duration` in the REPORT line.
    public struct Timing: Sendable {
        public var handedOut: ContinuousClock.Instant?
        public var ended: ContinuousClock.Instant
    }

    private struct Pending {
        let invocation: Invocation
        let continuation: CheckedContinuation<(InvocationOutcome, Timing), Never>
        let onHandOut: @Sendable () -> Void
        var handedOut: ContinuousClock.Instant?
        var timer: Task<Void, Never>?
    }

    private let clock: ContinuousClock
    private var queued: [Pending] = []
    private var inFlight: Pending?
    private var nextWaiter: CheckedContinuation<Invocation?, Never>?
    private var finishedRequestIDs: Set<String> = []
    private var endedWith: InvocationOutcome?

    /// The moment the runtime first asked for an event: its initialisation is over.
    public private(set) var initializedAt: ContinuousClock.Instant?

    public init(clock: ContinuousClock = ContinuousClock()) {
        self.clock = clock
    }

    // MARK: Emulator side

    /// Queues `invocation` and waits for its outcome. `onHandOut` runs when the runtime takes it.
    public func invoke(
        _ invocation: Invocation,
        onHandOut: @escaping @Sendable () -> Void = {}
    ) async -> (InvocationOutcome, Timing) {
        if let endedWith {
            return (endedWith, Timing(handedOut: nil, ended: clock.now))
        }
        return await withCheckedContinuation { continuation in
            let pending = Pending(invocation: invocation, continuation: continuation, onHandOut: onHandOut)
            if let waiter = nextWaiter {
                nextWaiter = nil
                waiter.resume(returning: handOut(pending))
            } else {
                queued.append(pending)
            }
        }
    }

    /// Ends the session: every waiting invocation gets `outcome`, a parked `/next` is released,
    /// and later calls are refused. Used when the process exits, times out or is stopped.
    public func end(_ outcome: InvocationOutcome) {
        guard endedWith == nil else { return }
        endedWith = outcome
        if let pending = inFlight {
            inFlight = nil
            finish(pending, with: outcome)
        }
        for pending in queued { finish(pending, with: outcome) }
        queued.removeAll()
        nextWaiter?.resume(returning: nil)
        nextWaiter = nil
    }

    // MARK: Runtime side

    /// What `GET /next` gets.
    enum NextEvent: Sendable {
        case event(Invocation)
        /// The session has ended: the runtime should stop.
        case ended
        /// An invocation is still unanswered: Lambda does not allow a second `/next` before its result.
        case refused
    }

    /// `GET /next`: the next event, waiting as long as it takes.
    func next() async -> NextEvent {
        if initializedAt == nil { initializedAt = clock.now }
        if endedWith != nil { return .ended }
        if inFlight != nil { return .refused }
        if !queued.isEmpty {
            return .event(handOut(queued.removeFirst()))
        }
        let invocation: Invocation? = await withCheckedContinuation { continuation in
            // Only one runtime loop runs per environment; a newer /next replaces a stale one.
            nextWaiter?.resume(returning: nil)
            nextWaiter = continuation
        }
        return invocation.map { .event($0) } ?? .ended
    }

    /// `POST /invocation/{id}/response`.
    func postResponse(requestID: String, body: ByteBuffer) -> RuntimeAPIReply {
        guard let pending = takeInFlight(requestID) else { return stateError(for: requestID) }
        finish(pending, with: .response(body))
        return .accepted
    }

    /// A response body over the payload limit: the invocation fails as Lambda fails it.
    func postOversizedResponse(requestID: String) -> RuntimeAPIReply {
        guard let pending = takeInFlight(requestID) else { return stateError(for: requestID) }
        finish(pending, with: .responseTooLarge)
        return .payloadTooLarge
    }

    /// `POST /invocation/{id}/error`.
    func postError(requestID: String, body: ByteBuffer, errorTypeHeader: String?) -> RuntimeAPIReply {
        guard let pending = takeInFlight(requestID) else { return stateError(for: requestID) }
        let (errorType, payload) = ErrorPayload.normalise(posted: body, headerType: errorTypeHeader)
        finish(pending, with: .functionError(errorType: errorType, payload: payload))
        return .accepted
    }

    /// `POST /init/error`: only before the first `/next`. Every waiting invocation fails with it.
    func postInitError(body: ByteBuffer, errorTypeHeader: String?) -> RuntimeAPIReply {
        guard initializedAt == nil else { return .invalidStateTransition("initialisation is already over") }
        let (errorType, payload) = ErrorPayload.normalise(posted: body, headerType: errorTypeHeader)
        end(.initError(errorType: errorType, payload: payload))
        return .accepted
    }

    // MARK: Internals

    /// Marks `pending` as the invocation in flight and starts its timeout.
    private func handOut(_ pending: Pending) -> Invocation {
        var pending = pending
        pending.handedOut = clock.now
        let requestID = pending.invocation.requestID
        let timeout = pending.invocation.timeout
        let clock = self.clock
        pending.timer = Task { [weak self] in
            do {
                try await clock.sleep(for: timeout)
            } catch {
                return
            }
            await self?.expire(requestID: requestID, after: timeout)
        }
        inFlight = pending
        pending.onHandOut()
        return pending.invocation
    }

    private func expire(requestID: String, after timeout: Duration) {
        guard inFlight?.invocation.requestID == requestID else { return }
        end(.timedOut(seconds: timeout.seconds))
    }

    private func takeInFlight(_ requestID: String) -> Pending? {
        guard let pending = inFlight, pending.invocation.requestID == requestID else { return nil }
        inFlight = nil
        return pending
    }

    private func stateError(for requestID: String) -> RuntimeAPIReply {
        finishedRequestIDs.contains(requestID)
            ? .invalidStateTransition("invocation \(requestID) already has its result")
            : .invalidRequestID
    }

    private func finish(_ pending: Pending, with outcome: InvocationOutcome) {
        pending.timer?.cancel()
        finishedRequestIDs.insert(pending.invocation.requestID)
        pending.continuation.resume(returning: (outcome, Timing(handedOut: pending.handedOut, ended: clock.now)))
    }
}
