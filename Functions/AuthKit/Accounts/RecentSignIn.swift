import GatehouseJSON
import StoreCore

/// Whether a session is a recent sign-in: it started less than `window` seconds ago
/// (`RECENT_SIGN_IN_SECONDS`, an hour by default). What a change that adds a way in asks of a
/// session when no nonce can be offered (a passkey's registration), and what `Reauthentication`
/// asks first.
public struct RecentSignIn: Sendable {
    /// How long after its start a session counts as recent, in seconds.
    public let window: Double
    let store: any KeyValueStore
    let clock: any StoreClock

    public init(store: any KeyValueStore, clock: any StoreClock, window: Double = Reauthentication.defaultWindow) {
        self.store = store
        self.clock = clock
        self.window = window
    }

    /// The window `environment` gives (`RECENT_SIGN_IN_SECONDS`), on the wall clock.
    public init(environment: [String: String], store: any KeyValueStore) throws {
        self.init(
            store: store, clock: SystemStoreClock(), window: try Reauthentication.window(environment: environment))
    }

    /// Whether the session of `bearer` started less than `window` seconds ago (its token says
    /// when; a token from before it did, the session's row).
    public func isRecent(_ bearer: AccessTokens.Bearer) async throws -> Bool {
        var started = bearer.sessionStartedAt
        if started == nil {
            let session = try await store.get(
                RefreshTokens.sessionsTable,
                key: RefreshTokens.sessionKey(userID: bearer.userID, sessionID: bearer.sessionID))
            started = session?["createdAt"]?.numberValue
        }
        guard let started else { return false }
        return clock.now - started / 1000 < window
    }

    /// Passes a session of `user` that is a recent sign-in, or any of an anonymous user (its
    /// session is all it has); else `AccountError.reauthenticationNeeded`. A session begun
    /// anonymously never passes for a user made permanent since: it proved nothing about the
    /// address confirmed later (as `Reauthentication.require(_:of:…)`, which also takes a nonce).
    public func require(_ bearer: AccessTokens.Bearer, of user: User) async throws {
        guard !user.isAnonymous else { return }
        guard bearer.sessionMethod != AnonymousSignIn.method, try await isRecent(bearer) else {
            throw AccountError.reauthenticationNeeded
        }
    }
}
