import GatehouseJSON
import StoreCore

/// Email-and-password accounts once they exist: password sign-in, the links of
/// `PasswordSignUp`'s emails used, and the changes a signed-in user makes. Sessions are
/// `SessionService`'s, so a password account's session refreshes and ends like every other,
/// and the account is the same user a magic link or a provider signs in.
///
/// A sign-in of an unknown address, of a user without a password, or of a locked account does
/// the work of a real check (`PasswordHasher.burn`) and gets the answer a wrong password gets.
/// A good sign-in redoes a hash weaker than today's (an older scrypt cost, or an imported
/// bcrypt hash) with today's cost, on the condition that the hash is still the one checked.
public struct PasswordAccounts: Sendable {
    public let sessions: SessionService
    public let links: EmailTokens
    public let policy: PasswordPolicy
    let store: any KeyValueStore
    let clock: any StoreClock
    let hasher: PasswordHasher
    let attempts: PasswordAttempts
    /// What a new password or address asks of the session.
    public let reauthentication: Reauthentication
    public let emailChanges: EmailChanges
    /// Where the emails of an address change are sent from: after the function's answer.
    public let later: Deferred
    /// The codes of a number change; nil where phone codes are off (no OTP secret).
    public var phoneChanges: PhoneChanges?
    /// Where an address without a Gatehouse password is tried (`migrate`); nil: nowhere.
    public var migration: (any PasswordMigrationSource)?

    /// `reauthentication` defaults to an hour's window and nonces kept as salted SHA-256.
    public init(
        sessions: SessionService, store: any KeyValueStore, clock: any StoreClock, links: EmailTokens,
        policy: PasswordPolicy = PasswordPolicy(), hasher: PasswordHasher = PasswordHasher(),
        reauthentication: Reauthentication? = nil, later: Deferred = .now
    ) {
        self.later = later
        self.sessions = sessions
        self.store = store
        self.clock = clock
        self.links = links
        self.policy = policy
        self.hasher = hasher
        attempts = PasswordAttempts(store: store, clock: clock)
        self.reauthentication =
            reauthentication ?? Reauthentication(store: store, clock: clock, links: links, secret: nil)
        emailChanges = EmailChanges(users: sessions.users, links: links, store: store, clock: clock)
    }

    /// The service a function runs: `SessionService`'s settings and keys, its links
    /// (`EmailTokens(environment:)`), `PasswordPolicy`'s and `PasswordHasher`'s settings,
    /// `RECENT_SIGN_IN_SECONDS` (an hour by default) and the OTP secret for reauthentication,
    /// and the wall clock.
    public init(
        environment: [String: String], store: any KeyValueStore, remote: (any RemoteSenders)? = nil,
        later: Deferred = .now
    ) throws {
        let clock = SystemStoreClock()
        let links = try EmailTokens(environment: environment, store: store, clock: clock, remote: remote)
        self.init(
            sessions: try SessionService(environment: environment, store: store, functions: remote?.functions()),
            store: store, clock: clock,
            links: links, policy: try PasswordPolicy(environment: environment),
            hasher: try PasswordHasher(environment: environment),
            reauthentication: Reauthentication(
                store: store, clock: clock, links: links, secret: try OTPSecret.optional(environment: environment),
                window: try Reauthentication.window(environment: environment)), later: later)
    }

    /// Signs in with a password: the user (its last sign-in now) and a new session.
    /// `AccountError.invalidCredentials` for a wrong password, an unknown address or a locked
    /// account alike; `emailNotConfirmed` only once the password was right. A malformed address
    /// (no account can have it) is counted against the source and refused at once, unhashed:
    /// `SignInError.invalidField("email")`. An app that signs in through its backend only is
    /// refused first (`SessionError.notRedeemableHere`).
    public func signIn(
        email text: String, password: String, app: App, sourceIP: String?
    ) async throws -> (user: User, session: SessionResponse) {
        // Before any password is compared, so that the refusal tells nothing of the password.
        guard app.redeem.contains(.public) else { throw SessionError.notRedeemableHere }
        guard let email = EmailAddress(text) else {
            try await attempts.countSource(sourceIP)
            throw SignInError.invalidField("email", "is not an email address")
        }
        return try await signIn(.email(email), password: password, app: app, sourceIP: sourceIP)
    }

    /// Signs in with a number's password (Supabase's `{phone, password}`), as with an address's:
    /// `phoneNotConfirmed` only once the password was right, for a sign-up whose texted code was
    /// not used yet; a malformed number refused at once, unhashed (`invalidField("phone")`).
    public func signIn(
        phone text: String, password: String, app: App, sourceIP: String?
    ) async throws -> (user: User, session: SessionResponse) {
        guard app.redeem.contains(.public) else { throw SessionError.notRedeemableHere }
        guard let phone = PhoneNumber(text) else {
            try await attempts.countSource(sourceIP)
            throw SignInError.invalidField("phone", "is not a phone number (give +country code)")
        }
        return try await signIn(.phone(phone), password: password, app: app, sourceIP: sourceIP)
    }

    /// The password sign-in of the account `identity` names (an address or a number).
    private func signIn(
        _ identity: SignInIdentity, password: String, app: App, sourceIP: String?
    ) async throws -> (user: User, session: SessionResponse) {
        let account = identity.providerEntry.subject
        try await begin(identity, password: password, app: app, sourceIP: sourceIP)
        let found = try await sessions.users.user(identity)
        if let moved = try await migrated(identity, password: password, found: found, app: app, sourceIP: sourceIP) {
            return try await startSession(for: moved, app: app.id, proof: AuthenticationMethod.password)
        }
        let (user, stored, needsRehash): (User, String, Bool)
        do {
            (user, stored, needsRehash) = try await check(password, of: found, account: account, sourceIP: sourceIP)
        } catch AccountError.invalidCredentials {
            await refused(.wrongPassword, userID: found?.id, app: app)
            throw AccountError.invalidCredentials
        }
        guard !user.emailIsPending, !user.phoneIsPending else {
            await refused(.notConfirmed, userID: user.id, app: app)
            throw user.emailIsPending ? AccountError.emailNotConfirmed : AccountError.phoneNotConfirmed
        }
        let rehash =
            needsRehash
            ? [
                PasswordCredentials.rehash(
                    userID: user.id, from: stored, to: try hasher.hash(password).description, at: clock.now * 1000)
            ] : []
        return try await startSession(
            for: user, app: app.id, proof: AuthenticationMethod.password, alsoWriting: rehash)
    }

    /// `password` checked against `user`'s usable hash, its try already counted at `account`
    /// (`PasswordAttempts.begin`): the user, the hash and whether it is weaker than today's, the
    /// try forgotten; `AccountError.invalidCredentials` otherwise (no user, no usable password,
    /// or another one), after a hash's work either way (`burn` when there is nothing to compare).
    func check(
        _ password: String, of user: User?, account: String, sourceIP: String?
    ) async throws -> (user: User, stored: String, needsRehash: Bool) {
        guard let user, let stored = try await PasswordCredentials.hash(userID: user.id, in: store) else {
            hasher.burn(password)
            throw AccountError.invalidCredentials
        }
        guard case .matches(let needsRehash) = try hasher.check(password, against: stored) else {
            throw AccountError.invalidCredentials
        }
        try await attempts.succeeded(account: account, sourceIP: sourceIP)
        return (user, stored, needsRehash)
    }

    /// Records the sign-in on `user` (best effort: a concurrent change of the user wins) and
    /// starts its session in `app`, signed in with `provider` (`proof`: `SessionService.start`).
    /// A banned user is refused before anything is written (`SessionError.banned`; the session's
    /// start checks the ban again, in its transaction, for a ban made meanwhile).
    public func startSession(
        for user: User, app: String, provider: String = "email", proof: String? = nil,
        alsoWriting writes: [WriteOperation] = []
    ) async throws -> (user: User, session: SessionResponse) {
        guard !sessions.users.isBanned(user) else { throw SessionError.banned }
        var signedIn = user
        signedIn.lastSignInAt = (clock.now * 1000).rounded(.down)
        let saved = (try? await sessions.users.save(signedIn, replacing: user, alsoWriting: writes)) ?? user
        return (saved, try await sessions.start(user: saved, app: app, provider: provider, proof: proof))
    }

}
