import Logging
import Synchronization

/// Work an invocation leaves for after its response: the runtime loop binds one per invocation
/// and runs what was left once the response is posted, before it asks for the next event, as
/// Lambda allows (the caller has its answer; the instance is not frozen until `/next`). Used so
/// that an answer's timing does not tell whether a message was sent (a recovery email goes
/// only to a registered address).
public final class AfterResponse: Sendable {
    /// The current invocation's; nil outside one (then `later` runs the work at once).
    @TaskLocal public static var current: AfterResponse?

    private let jobs = Mutex<[@Sendable () async throws -> Void]>([])

    public init() {}

    /// Runs `job` after the current invocation's response, or now outside an invocation. A
    /// job's error is logged by the loop (its type only), never answered.
    public static func later(_ job: @escaping @Sendable () async throws -> Void) async throws {
        guard let current else { return try await job() }
        current.jobs.withLock { $0.append(job) }
    }

    /// Runs the jobs left, in order, each once; logs the type of any error.
    func run(logger: Logger) async {
        let pending = jobs.withLock { jobs in
            defer { jobs.removeAll() }
            return jobs
        }
        for job in pending {
            do {
                try await job()
            } catch {
                logger.error("work after the response failed", metadata: ["errorType": .string("\(type(of: error))")])
            }
        }
    }
}
