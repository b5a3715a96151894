import Dispatch
import NIOCore
import Testing

@testable import Emulator

/// Tasks that prefer the emulator's loop run on its thread, where the servers' channels live.
struct EventLoopTaskExecutorTests {
    /// An actor with no executor of its own, to see where its code runs.
    private actor Probe {
        func onLoop() -> Bool { EmulatorLoop.shared.inEventLoop }
    }

    /// On the loop from the start, after resuming from a suspension settled on another thread,
    /// and inside an actor it calls; a task without the preference is not on it.
    @Test func aPreferringTaskRunsOnTheLoop() async throws {
        let probe = Probe()
        let seen = try await Task(executorPreference: EmulatorLoop.executor) {
            let atStart = EmulatorLoop.shared.inEventLoop
            let promise = EmulatorLoop.shared.makePromise(of: Void.self)
            DispatchQueue.global().async { promise.succeed() }
            try await promise.futureResult.get()
            return [atStart, EmulatorLoop.shared.inEventLoop, await probe.onLoop()]
        }.value
        #expect(seen == [true, true, true])
        #expect(await Task { EmulatorLoop.shared.inEventLoop }.value == false)
    }
}
