import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread of the runtime loop's own, as a task executor: the loop runs with a preference for
/// it, so its blocking Runtime API calls never hold a thread of Swift's shared pool, and a
/// handler that does not hop to an actor runs on the same thread, with no thread switch between
/// `/next`, the handler and the posted result.
///
/// Unstructured tasks a handler starts do not inherit the preference and run on the shared pool.
final class RuntimeThreadExecutor: TaskExecutor {
    private let jobs = Mutex<[UnownedJob]>([])
    private let available = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)

    /// Starts the thread.
    init() {
        let box = Unmanaged.passRetained(self)
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { context in
                let executor = Unmanaged<RuntimeThreadExecutor>.fromOpaque(context!).takeRetainedValue()
                executor.work()
                return nil
            }, box.toOpaque())
        precondition(created == 0, "cannot start the runtime loop's thread: \(String(cString: strerror(created)))")
        pthread_detach(thread)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        available.signal()
    }

    /// Lets the thread end once no job is left. Only when nothing prefers this executor any more.
    func shutdown() {
        stopping.store(true, ordering: .releasing)
        available.signal()
    }

    private func work() {
        let executor = asUnownedTaskExecutor()
        while true {
            available.wait()
            if let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
                job.runSynchronously(on: executor)
            } else if stopping.load(ordering: .acquiring) {
                return
            }
        }
    }
}
