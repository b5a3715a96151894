import Foundation

/// Waits (polling every 20 ms, at most `seconds`) until `condition` holds, and answers whether
/// it does: a bounded wait on another process, never a fixed sleep.
func eventually(_ seconds: Double = 5, _ condition: () -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}

/// `eventually` for a condition that must await (a CLI run, a request).
func eventuallyAwaiting(_ seconds: Double = 5, _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(50))
    }
    return try await condition()
}
