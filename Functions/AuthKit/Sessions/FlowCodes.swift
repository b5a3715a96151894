import StoreCore

/// The auth codes of PKCE flows that end by a redirect (a link's button, a provider's
/// callback): the client sent a challenge when the flow began; the redirect carries `?code=`
/// and never a token; the client exchanges the code with its verifier (`redeem`).
///
/// - A code is an `AuthCodes` code (32 random bytes, kept only as its SHA-256) bound to the
///   challenge, alive for `lifetime` (5 minutes, as Supabase's flow state) and remembered as
///   long again, so that a late exchange is told it expired rather than unknown.
/// - It is taken by one conditional delete before anything is compared: one exchange wins
///   however many race, and a code refused for any reason (expired, another verifier, another
///   app's) is spent, so an app that intercepted it on its way back cannot try again.
/// - Wrong codes are limited per source IP (`perSourceIP`, counted before the take and given
///   back when the code was good), like the other secrets a client could guess at.
public struct FlowCodes: Sendable {
    /// How long a flow's code can be exchanged, in seconds: 5 minutes.
    public static let lifetime: Double = 300
    /// Exchanges of unknown, used, expired or mismatched codes one source may make in an hour.
    public static let perSourceIP = RateLimit.perSource(name: "flow-code:ip", limit: 30, window: 3600)

    let codes: AuthCodes
    let store: any KeyValueStore
    let clock: any StoreClock

    public init(store: any KeyValueStore, clock: any StoreClock) {
        codes = AuthCodes(store: store, clock: clock)
        self.store = store
        self.clock = clock
    }

    /// A code for `user`, signed in with `provider` for `app`, that only `challenge`'s verifier
    /// redeems; with `linking`, the identity its exchange links to `user`.
    public func mint(
        user: User, app: String, provider: String, challenge: String, linking: SignInIdentity? = nil
    ) async throws -> String {
        try await codes.mint(
            app: app, user: user, provider: provider, isNewUser: false, codeChallenge: challenge,
            lifetime: Self.lifetime, remembered: Self.lifetime, linking: linking)
    }

    /// Takes `code` for `app` if `verifier` is its challenge's: its grant. `FlowError` otherwise
    /// (`missingCodeOrVerifier`, `notFound` for an unknown, used or another app's code or one
    /// bound to no challenge, `expired`, `badVerifier`); `SignInError.rateLimited` when
    /// `sourceIP` has sent too many bad ones.
    public func redeem(code: String, verifier: String, app: String, sourceIP: String?) async throws -> AuthCodeGrant {
        guard !code.isEmpty, !verifier.isEmpty else { throw FlowError.missingCodeOrVerifier }
        let limiter = RateLimiter(store: store, clock: clock)
        if let sourceIP, case .limited(let seconds) = try await limiter.hit(Self.perSourceIP, subject: sourceIP) {
            throw SignInError.rateLimited(retryAfter: seconds)
        }
        guard let grant = try await codes.take(code, app: app), let challenge = grant.codeChallenge else {
            throw FlowError.notFound
        }
        guard clock.now * 1000 < grant.expiresAt else { throw FlowError.expired }
        guard PKCE.verifies(verifier, challenge: challenge) else { throw FlowError.badVerifier }
        if let sourceIP { try? await limiter.undo(Self.perSourceIP, subject: sourceIP) }
        return grant
    }
}
