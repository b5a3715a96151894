/// Runs work after the function's answer: what a service hands a message it sends to, so that
/// neither an answer nor its time tells what the message said or whether there was one. A
/// function passes LambdaRuntime's `AfterResponse.later`; `Deferred.now` (the default, and the
/// tests') runs the work at once.
public struct Deferred: Sendable {
    let run: @Sendable (@escaping @Sendable () async throws -> Void) async throws -> Void

    public init(_ run: @escaping @Sendable (@escaping @Sendable () async throws -> Void) async throws -> Void) {
        self.run = run
    }

    /// Runs the work at once.
    public static let now = Deferred { try await $0() }

    public func callAsFunction(_ work: @escaping @Sendable () async throws -> Void) async throws {
        try await run(work)
    }
}
