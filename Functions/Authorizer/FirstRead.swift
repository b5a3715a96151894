import Synchronization

/// A read started ahead of its first use, handed out once: the first taker awaits it, every
/// later one reads afresh. A read started more than `freshFor` before it is taken (a process
/// started long before its first event) is not handed out: the keys it read could be older than
/// the cache would count them.
final class FirstRead: Sendable {
    private let task: Mutex<Task<String, any Error>?>
    private let started = ContinuousClock.now
    private let freshFor: Duration

    init(_ task: Task<String, any Error>, freshFor: Duration = .seconds(30)) {
        self.task = Mutex(task)
        self.freshFor = freshFor
    }

    /// The read, the first time and while fresh; nil after.
    func take() -> Task<String, any Error>? {
        let fresh = started.duration(to: .now) <= freshFor
        return task.withLock { task in
            defer { task = nil }
            return fresh ? task : nil
        }
    }
}
