import Synchronization

/// A read started ahead of its first use, handed out once: the first taker awaits it, every
/// later one reads afresh.
final class FirstRead: Sendable {
    private let task: Mutex<Task<String, any Error>?>

    init(_ task: Task<String, any Error>) {
        self.task = Mutex(task)
    }

    /// The read, the first time; nil after.
    func take() -> Task<String, any Error>? {
        task.withLock { task in
            defer { task = nil }
            return task
        }
    }
}
