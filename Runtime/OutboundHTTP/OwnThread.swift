#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs blocking work on a thread started for it.
enum OwnThread {
    /// Runs `work` on its own thread and resumes the caller with its result.
    static func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            start { continuation.resume(returning: work()) }
        }
    }

    /// Starts `work` on its own thread (detached) and returns; without a thread to be had, runs
    /// it here rather than not at all.
    static func start(_ work: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Job(work)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<Job>.fromOpaque(context!).takeRetainedValue().body()
                return nil
            }, box)
        if created == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<Job>.fromOpaque(box).takeRetainedValue().body()
        }
    }

    private final class Job {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
}
