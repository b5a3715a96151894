import NIOCore
import NIOPosix

/// The one event loop every server of the emulator runs on: the local API, each instance's
/// Runtime API and the invocation timers, with each request's task on it too
/// (`EventLoopTaskExecutor`).
///
/// One thread rather than one per core: every request crosses the emulator three times (the
/// client's request, the event handed to a function, the function's result), and with a loop
/// per core and tasks on Swift's shared pool, each crossing woke another thread. Under
/// `Benchmarks/start-api.py`'s load on two cores, start-api used 72-77 µs of CPU per request
/// that way and 55-56 µs this way. The function instances, which do the work, have the other
/// cores; they run batch-scheduled (`ChildProcess`'s `batchScheduling`) so that one woken by
/// its event does not preempt this loop, which every instance waits on.
enum EmulatorLoop {
    /// Started on first use; it lives as long as the process.
    static let shared: any EventLoop = MultiThreadedEventLoopGroup(numberOfThreads: 1).next()

    /// Runs tasks that prefer it on `shared`.
    static let executor = EventLoopTaskExecutor(shared)
}
