#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs blocking work on a thread started for it, and resumes the caller with its result.
enum OwnThread {
    static func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            let job = Job {
                continuation.resume(returning: work())
            }
            let box = Unmanaged.passRetained(job).toOpaque()
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
                // No thread to be had: run it here rather than not at all.
                Unmanaged<Job>.fromOpaque(box).takeRetainedValue().body()
            }
        }
    }

    private final class Job {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
}
