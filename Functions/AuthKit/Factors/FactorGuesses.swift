import StoreCore

/// The wrong-code limits of a factor's codes, wherever a code is tried (a session's verify,
/// `Factors.verify`; the hosted page's second step, `SecondFactorSignIn`): one try counted before
/// the code is compared, per source (first, so that a source over its limit spends none of the
/// owner's own tries), factor and user (`Factors.guessesPerSource`, `guessesPerFactor`,
/// `guessesPerUser`), and taken back when the code was right.
struct FactorGuesses {
    let store: any KeyValueStore
    let clock: any StoreClock

    /// Counts one try at `factor` against every limit: `SignInError.rateLimited` over any.
    func count(at factor: Factor, sourceIP: String?) async throws {
        let limiter = RateLimiter(store: store, clock: clock)
        var limits = [(Factors.guessesPerFactor, factor.id), (Factors.guessesPerUser, factor.userID)]
        if let sourceIP { limits.insert((Factors.guessesPerSource, sourceIP), at: 0) }
        for (rule, subject) in limits {
            if case .limited(let retryAfter) = try await limiter.hit(rule, subject: subject) {
                throw SignInError.rateLimited(retryAfter: retryAfter)
            }
        }
    }

    /// The code was right: its try is taken back from every limit (best effort).
    func takeBack(at factor: Factor, sourceIP: String?) async {
        let limiter = RateLimiter(store: store, clock: clock)
        try? await limiter.undo(Factors.guessesPerFactor, subject: factor.id)
        try? await limiter.undo(Factors.guessesPerUser, subject: factor.userID)
        if let sourceIP { try? await limiter.undo(Factors.guessesPerSource, subject: sourceIP) }
    }
}
