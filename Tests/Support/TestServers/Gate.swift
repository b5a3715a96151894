import Synchronization

/// A gate that tasks wait at until it is opened, once: a test stand-in holds its answers
/// behind one, so that a test can see what its caller does while a call is still in flight.
public final class Gate: Sendable {
    private struct State {
        var open = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Waits until the gate is open (returns at once once it is).
    public func wait() async {
        await withCheckedContinuation { continuation in
            let proceed = state.withLock { state in
                if state.open { return true }
                state.waiting.append(continuation)
                return false
            }
            if proceed { continuation.resume() }
        }
    }

    /// Opens the gate: every waiter goes on, and nobody waits again.
    public func open() {
        let waiting = state.withLock { state in
            state.open = true
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        waiting.forEach { $0.resume() }
    }
}
