import Foundation

/// Runs a blocking call on a thread of its own, so the test's servers (which run on Swift's
/// shared pool) keep their threads while the client waits.
func offPool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try work() })
        }
    }
}
