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
