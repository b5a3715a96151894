import NIOCore

/// An event loop as a task executor: a task started with a preference for it runs its jobs on
/// the loop's thread, between the loop's I/O, so it reads and writes the loop's channels with no
/// thread hop, and an actor it calls into (one without an executor of its own) runs there too.
///
/// A task that blocks its thread blocks the loop, and with it every connection on it: only
/// work that never waits on anything but `await` belongs here.
final class EventLoopTaskExecutor: TaskExecutor {
    let loop: any EventLoop

    init(_ loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
