import LambdaRuntime
import Synchronization

/// Authorizer answers kept per authorizer and identity (the values of its identity headers)
/// for its `ReauthorizeEvery` seconds, as API Gateway caches them. A refusal is kept too, so a
/// bad token does not cost an invocation per request; a policy is judged anew per request.
public final class AuthorizerCache: Sendable {
    private struct Key: Hashable {
        let authorizer: String
        let identity: [String]
    }

    private let entries = Mutex<[Key: (answer: AuthorizerAnswer, expires: Double)]>([:])
    private let now: @Sendable () -> Double

    /// `now` is the clock, in seconds (injected by tests).
    public init(now: @escaping @Sendable () -> Double) {
        self.now = now
    }

    /// The kept answer of `authorizer` for `identity`, unless it has expired.
    public func answer(_ authorizer: String, identity: [String]) -> AuthorizerAnswer? {
        let time = now()
        return entries.withLock { entries in
            let key = Key(authorizer: authorizer, identity: identity)
            guard let entry = entries[key] else { return nil }
            guard time < entry.expires else {
                entries[key] = nil
                return nil
            }
            return entry.answer
        }
    }

    /// Keeps `answer` for `seconds` (nothing is kept for 0).
    public func keep(_ answer: AuthorizerAnswer, _ authorizer: String, identity: [String], seconds: Int) {
        guard seconds > 0 else { return }
        let expires = now() + Double(seconds)
        entries.withLock { entries in
            // Expired entries go when the cache is large, so it cannot grow without bound.
            if entries.count >= 10_000 {
                let time = now()
                entries = entries.filter { $0.value.expires > time }
            }
            entries[Key(authorizer: authorizer, identity: identity)] = (answer, expires)
        }
    }
}
