import NIOCore
import Synchronization

/// The state of one execution environment's Runtime API: events waiting to be handed out, the
/// invocation the runtime is working on, and who is waiting for its outcome.
///
/// The runtime side calls `next`, `postResponse`, `postError` and `postInitError` (through the
/// HTTP server, on its event loop, without suspending); the emulator side calls `invoke` and,
/// when the process ends or must be stopped, `end`. Every waiter is resumed exactly once,
/// whatever happens first.
///
/// A lock rather than an actor: each call is a few field updates, and the server's event loop
/// would otherwise need a task and two executor hops per Runtime API call. Continuations and
/// callbacks always run after the lock is released.
public final class RuntimeSession: Sendable {
    /// When an invocation was handed out and when it ended, for `Duration` in the REPORT line.
    public struct Timing: Sendable {
        public var handedOut: ContinuousClock.Instant?
        public var ended: ContinuousClock.Instant
    }

    /// What `GET /next` gets.
    enum NextEvent: Sendable {
        case event(Invocation)
        /// The session has ended: the runtime should stop.
        case ended
        /// An invocation is still unanswered: Lambda does not allow a second `/next` before its result.
        case refused
        /// Another `/next` of this environment is already waiting for an event.
        case alreadyWaiting
    }

    /// Receives what a parked `/next` gets, exactly once, on whichever thread settled it.
    typealias NextDelivery = @Sendable (NextEvent) -> Void

    private struct Pending: Sendable {
        let invocation: Invocation
        let continuation: CheckedContinuation<(InvocationOutcome, Timing), Never>
        let onHandOut: @Sendable () -> Void
        var handedOut: ContinuousClock.Instant?
        /// When the invocation in flight times out.
        var deadline: NIODeadline?
    }

    private struct State: Sendable {
        var queued: [Pending] = []
        var inFlight: Pending?
        var nextWaiter: (id: Int, deliver: NextDelivery)?
        var waiterCount = 0
        var finishedRequestIDs = RecentRequestIDs()
        var endedWith: InvocationOutcome?
        var initializedAt: ContinuousClock.Instant?
        /// The timeout timer, while one is set. It fires at or before the deadline of the
        /// invocation in flight, and is set again for that deadline if it has not passed yet.
        var timer: (scheduled: Scheduled<Void>, deadline: NIODeadline)?
    }

    /// The last few request ids that got their result, so a late second result is told "already
    /// has its result" as AWS tells it. Bounded: a warm instance that handles millions of events
    /// holds only these; an id older than them is simply unknown.
    struct RecentRequestIDs: Sendable {
        static let capacity = 32
        private var ids: [String] = []
        private var oldest = 0

        func contains(_ id: String) -> Bool { ids.contains(id) }

        mutating func insert(_ id: String) {
            if ids.count < Self.capacity {
                ids.append(id)
            } else {
                ids[oldest] = id
                oldest = (oldest + 1) % Self.capacity
            }
        }
    }

    /// What to do once the lock is released.
    private enum Effect {
        case finish(Pending, InvocationOutcome)
        case deliver(NextDelivery, NextEvent)
        case handedOut(Pending)
    }

    private let clock: ContinuousClock
    private let state = Mutex(State())

    /// The moment the runtime first asked for an event: its initialisation is over.
    public var initializedAt: ContinuousClock.Instant? { state.withLock { $0.initializedAt } }

    public init(clock: ContinuousClock = ContinuousClock()) {
        self.clock = clock
    }

    // MARK: Emulator side

    /// Queues `invocation` and waits for its outcome. `onHandOut` runs when the runtime takes it.
    public func invoke(
        _ invocation: Invocation,
        onHandOut: @escaping @Sendable () -> Void = {}
    ) async -> (InvocationOutcome, Timing) {
        await withCheckedContinuation { continuation in
            let pending = Pending(invocation: invocation, continuation: continuation, onHandOut: onHandOut)
            let effects: [Effect] = state.withLock { state in
                if let endedWith = state.endedWith { return [.finish(pending, endedWith)] }
                guard let waiter = state.nextWaiter else {
                    state.queued.append(pending)
                    return []
                }
                state.nextWaiter = nil
                let handed = handOut(pending, in: &state)
                return [.handedOut(handed), .deliver(waiter.deliver, .event(handed.invocation))]
            }
            perform(effects)
        }
    }

    /// Ends the session: every waiting invocation gets `outcome`, a parked `/next` is released,
    /// and later calls are refused. Used when the process exits, times out or is stopped.
    public func end(_ outcome: InvocationOutcome) {
        perform(state.withLock { end(outcome, in: &$0) })
    }

    // MARK: Runtime side

    /// `GET /next`: `deliver` gets the next event now, or once one is queued. Returns an id for
    /// `withdrawNext` when it was parked.
    @discardableResult
    func next(_ deliver: @escaping NextDelivery) -> Int? {
        var parked: Int?
        let effects: [Effect] = state.withLock { state in
            if state.initializedAt == nil { state.initializedAt = clock.now }
            if state.endedWith != nil { return [.deliver(deliver, .ended)] }
            if state.inFlight != nil { return [.deliver(deliver, .refused)] }
            if !state.queued.isEmpty {
                let handed = handOut(state.queued.removeFirst(), in: &state)
                return [.handedOut(handed), .deliver(deliver, .event(handed.invocation))]
            }
            // Only one runtime loop runs per environment: a second /next while one waits is refused,
            // as the real Runtime API refuses it, and the waiting one keeps its place. (One whose
            // connection went away was withdrawn already.)
            if state.nextWaiter != nil { return [.deliver(deliver, .alreadyWaiting)] }
            state.waiterCount += 1
            state.nextWaiter = (state.waiterCount, deliver)
            parked = state.waiterCount
            return []
        }
        perform(effects)
        return parked
    }

    /// `GET /next` for callers that can wait: the next event, waiting as long as it takes.
    func next() async -> NextEvent {
        await withCheckedContinuation { continuation in
            next { continuation.resume(returning: $0) }
        }
    }

    /// Whether a `/next` is parked, waiting for an event.
    var hasParkedNext: Bool { state.withLock { $0.nextWaiter != nil } }

    /// The connection of a parked `/next` went away: no event may be handed to it.
    func withdrawNext(_ id: Int) {
        state.withLock { state in
            if state.nextWaiter?.id == id { state.nextWaiter = nil }
        }
    }

    /// `POST /invocation/{id}/response`.
    func postResponse(requestID: String, body: ByteBuffer) -> RuntimeAPIReply {
        settle(requestID, accepted: .accepted) { .response(body) }
    }

    /// A response body over the payload limit: the invocation fails as Lambda fails it.
    func postOversizedResponse(requestID: String) -> RuntimeAPIReply {
        settle(requestID, accepted: .payloadTooLarge) { .responseTooLarge }
    }

    /// `POST /invocation/{id}/error`.
    func postError(requestID: String, body: ByteBuffer, errorTypeHeader: String?) -> RuntimeAPIReply {
        settle(requestID, accepted: .accepted) {
            let (errorType, payload) = ErrorPayload.normalise(posted: body, headerType: errorTypeHeader)
            return .functionError(errorType: errorType, payload: payload)
        }
    }

    /// `POST /init/error`: only before the first `/next`. Every waiting invocation fails with it.
    func postInitError(body: ByteBuffer, errorTypeHeader: String?) -> RuntimeAPIReply {
        let (errorType, payload) = ErrorPayload.normalise(posted: body, headerType: errorTypeHeader)
        let (reply, effects): (RuntimeAPIReply, [Effect]) = state.withLock { state in
            guard state.initializedAt == nil else {
                return (.invalidStateTransition("initialisation is already over"), [])
            }
            return (.accepted, end(.initError(errorType: errorType, payload: payload), in: &state))
        }
        perform(effects)
        return reply
    }

    // MARK: Internals

    /// Finishes the invocation in flight when it is `requestID`; otherwise the AWS state error.
    private func settle(
        _ requestID: String, accepted: RuntimeAPIReply, outcome: () -> InvocationOutcome
    ) -> RuntimeAPIReply {
        let (taken, reply): (Pending?, RuntimeAPIReply) = state.withLock { state in
            guard let pending = state.inFlight, pending.invocation.requestID == requestID else {
                return (
                    nil,
                    state.finishedRequestIDs.contains(requestID)
                        ? .invalidStateTransition("invocation \(requestID) already has its result")
                        : .invalidRequestID
                )
            }
            state.inFlight = nil
            state.finishedRequestIDs.insert(requestID)
            return (pending, accepted)
        }
        if let taken { perform([.finish(taken, outcome())]) }
        return reply
    }

    /// Marks `pending` as the invocation in flight and makes sure its timeout is watched.
    private func handOut(_ pending: Pending, in state: inout State) -> Pending {
        var pending = pending
        pending.handedOut = clock.now
        pending.deadline = .now() + TimeAmount(pending.invocation.timeout)
        state.inFlight = pending
        // One timer per session rather than one per event: setting a timer on an event loop and
        // cancelling it from another thread for every event was a few percent of start-api's CPU
        // under load. A timer set for an earlier event fires no later than this one's deadline,
        // and then sets itself again for it.
        if let deadline = pending.deadline, state.timer.map({ $0.deadline > deadline }) ?? true {
            state.timer?.scheduled.cancel()
            state.timer = armTimer(for: deadline)
        }
        return pending
    }

    private func armTimer(for deadline: NIODeadline) -> (scheduled: Scheduled<Void>, deadline: NIODeadline) {
        let scheduled = EmulatorLoop.shared.scheduleTask(deadline: deadline) {
            [weak self] () -> Void in
            self?.timerFired()
        }
        return (scheduled, deadline)
    }

    /// Times out the invocation in flight if its deadline has passed; otherwise waits for it.
    private func timerFired() {
        perform(
            state.withLock { state in
                state.timer = nil
                guard let pending = state.inFlight, let deadline = pending.deadline else { return [] }
                guard NIODeadline.now() >= deadline else {
                    state.timer = armTimer(for: deadline)
                    return []
                }
                return end(.timedOut(seconds: pending.invocation.timeout.seconds), in: &state)
            })
    }

    private func end(_ outcome: InvocationOutcome, in state: inout State) -> [Effect] {
        guard state.endedWith == nil else { return [] }
        state.endedWith = outcome
        state.timer?.scheduled.cancel()
        state.timer = nil
        var effects: [Effect] = []
        if let pending = state.inFlight {
            state.inFlight = nil
            state.finishedRequestIDs.insert(pending.invocation.requestID)
            effects.append(.finish(pending, outcome))
        }
        for pending in state.queued {
            state.finishedRequestIDs.insert(pending.invocation.requestID)
            effects.append(.finish(pending, outcome))
        }
        state.queued.removeAll()
        if let waiter = state.nextWaiter { effects.append(.deliver(waiter.deliver, .ended)) }
        state.nextWaiter = nil
        return effects
    }

    private func perform(_ effects: [Effect]) {
        for effect in effects {
            switch effect {
            case .finish(let pending, let outcome):
                pending.continuation.resume(
                    returning: (outcome, Timing(handedOut: pending.handedOut, ended: clock.now)))
            case .deliver(let deliver, let event):
                deliver(event)
            case .handedOut(let pending):
                pending.onHandOut()
            }
        }
    }
}
