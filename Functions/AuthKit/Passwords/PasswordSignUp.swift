import GatehouseJSON
import StoreCore

/// The emails that start a password account's life: sign-up with its confirmation link, and
/// account recovery. It holds no signing key: the links are used by `PasswordAccounts`.
///
/// - A sign-up of an address whose account is confirmed answers exactly as a new one (a user of
///   the same shape, with a random id) and mails its owner a notice instead of a link: the
///   answer tells nobody whether the address is taken, nor does the time of what follows it
///   (the function mails after its answer either way, so its next request waits alike). The
///   password is hashed either way.
/// - A sign-up of an address whose sign-up still waits for confirmation replaces it: the newest
///   password, a fresh email, the earlier links dead (`UserDirectory.createPending`). An
///   unconfirmed sign-up expires after `pendingLifetime` (`PENDING_SIGNUP_SECONDS`, a day).
/// - A recovery answers nothing either way and does the same work up to its answer; the link is
///   mailed by the work it returns, which the function runs after its answer (LambdaRuntime's
///   `AfterResponse`), only when a user has the address.
/// - Both are rate-limited per source IP (`perSourceIP`) and their emails per address
///   (`EmailTokens.perAddress`), counted before the lookup, so the limits tell nothing either.
public struct PasswordSignUp: Sendable {
    public static let perSourceIP = RateLimit.perSource(name: "account:ip", limit: 30, window: 300)

    public let users: UserDirectory
    public let apps: AppRegistry
    public let links: EmailTokens
    public let policy: PasswordPolicy
    let store: any KeyValueStore
    let clock: any StoreClock
    let hasher: PasswordHasher
    /// How long an unconfirmed sign-up lives, in seconds.
    public let pendingLifetime: Double

    public init(
        store: any KeyValueStore, clock: any StoreClock, links: EmailTokens, policy: PasswordPolicy = PasswordPolicy(),
        hasher: PasswordHasher = PasswordHasher(), pendingLifetime: Double = UserDirectory.pendingLifetime
    ) {
        self.pendingLifetime = pendingLifetime
        self.store = store
        self.clock = clock
        self.links = links
        self.policy = policy
        self.hasher = hasher
        users = UserDirectory(store: store, clock: clock)
        apps = AppRegistry(store: store)
    }

    /// The service a function runs: its links (`EmailTokens(environment:)`), `PasswordPolicy`'s
    /// settings, `PENDING_SIGNUP_SECONDS` (at least a minute; a day by default), and the wall clock.
    public init(environment: [String: String], store: any KeyValueStore, remote: (any RemoteSenders)? = nil) throws {
        let clock = SystemStoreClock()
        let lifetime = try EnvironmentReader(environment: environment).seconds(
            "PENDING_SIGNUP_SECONDS", default: UserDirectory.pendingLifetime)
        guard lifetime >= 60 else {
            throw SettingsError.invalid("PENDING_SIGNUP_SECONDS", "must be at least 60 seconds")
        }
        self.init(
            store: store, clock: clock,
            links: try EmailTokens(environment: environment, store: store, clock: clock, remote: remote),
            policy: try PasswordPolicy(environment: environment),
            hasher: try PasswordHasher(environment: environment), pendingLifetime: lifetime)
    }

    /// Signs `email` up with `password` for `app`: a user whose address waits for the link
    /// mailed to it, which returns to `redirectTo` (checked against the app). The user to show;
    /// for an address already taken, a look-alike that is no one (see the type's rules). With a
    /// PKCE `codeChallenge` (S256, `PKCE.flowChallenge`), the link returns with an auth code.
    ///
    /// The mail is the work returned (the notice, for a taken address), which the caller runs
    /// after its answer, as a recovery's: the answer's time must not tell which was sent.
    public func signUp(
        email text: String, password: String, metadata: [String: JSONValue], app: App, redirectTo: String?,
        sourceIP: String?, codeChallenge: String? = nil
    ) async throws -> (user: User, mail: @Sendable () async throws -> Void) {
        let email = try EmailAddress.required(text)
        let redirect = try AppRedirect.resolve(redirectTo, app: app)
        try policy.check(password, email: email)
        _ = try PasswordAccounts.merge(metadata, into: [:])
        try await countRequest(to: email, from: sourceIP)
        let hash = try hasher.hash(password).description
        let name = Self.name(metadata) ?? DisplayName.from(email: email)
        guard
            let user = try await users.createPending(
                email: email, name: name, metadata: metadata, passwordHash: hash, lifetime: pendingLifetime,
                signUpChallenge: codeChallenge)
        else {
            // A confirmed account has the address: a new user's shape, no one's id.
            let lookAlike = User.pendingSignUp(
                email: email, name: name, metadata: metadata, at: (clock.now * 1000).rounded(.down))
            return (
                lookAlike,
                { [links] in
                    try await links.notify(
                        email.value, subject: Self.takenSubject(app), text: Self.takenText(app), app: app)
                }
            )
        }
        return (
            user,
            { [links] in
                try await links.send(
                    .signup, userID: user.id, email: email.value, app: app, redirectTo: redirect,
                    codeChallenge: codeChallenge)
            }
        )
    }

    /// The notice's subject, to the owner of an address someone signed up with again.
    static func takenSubject(_ app: App) -> String { "Someone signed up for \(app.name) with your email" }

    /// The notice's text: nothing in it to click.
    static func takenText(_ app: App) -> String {
        "Someone tried to sign up for \(app.name) with this email address, which already has an account. "
            + "If it was you, sign in, or reset your password if you have forgotten it. "
            + "If it was not, you can ignore this email: nothing has changed."
    }

    /// Counts a recovery of `email`: the work that finds its user and mails the link (nothing
    /// when no user has the address), which the caller runs after its answer so that the
    /// answer and its timing are the same either way. With a PKCE `codeChallenge`, the link
    /// returns with an auth code, as a sign-up's does.
    public func recover(
        email text: String, app: App, redirectTo: String?, sourceIP: String?, codeChallenge: String? = nil
    ) async throws -> @Sendable () async throws -> Void {
        try await mailLater(
            .recovery, to: text, app: app, redirectTo: redirectTo, sourceIP: sourceIP, codeChallenge: codeChallenge
        ) { _ in true }
    }

    /// Counts a request to mail `email` its sign-up's confirmation again (Supabase's `/resend`
    /// `{type: "signup"}`): the work that mails a new link when the address's sign-up still
    /// waits for it (nothing for a confirmed or unknown address), which the caller runs after its
    /// answer, as a recovery's. The earlier links stay good until they expire. With a PKCE
    /// `codeChallenge`, the new link returns with an auth code. Its confirmation drops the
    /// sign-up's password (nothing proves the resending client chose it: someone else's sign-up
    /// would otherwise keep theirs), unless the challenge is the sign-up's own.
    public func resendConfirmation(
        email text: String, app: App, redirectTo: String?, sourceIP: String?, codeChallenge: String? = nil
    ) async throws -> @Sendable () async throws -> Void {
        try await mailLater(
            .signup, to: text, app: app, redirectTo: redirectTo, sourceIP: sourceIP, codeChallenge: codeChallenge
        ) { $0.emailIsPending }
    }

    /// Supabase's `/resend` `email_change` for the address `text` (the user's current one):
    /// checked and counted as `resendConfirmation` is, then the work, for after the caller's
    /// answer, that mails the links of that user's pending change again (`EmailChanges.resend`),
    /// and does nothing when there is no such user or change.
    public func resendEmailChange(
        email text: String, app: App, redirectTo: String?, sourceIP: String?
    ) async throws -> @Sendable () async throws -> Void {
        let email = try EmailAddress.required(text)
        let redirect = try AppRedirect.resolve(redirectTo, app: app)
        try await countRequest(to: email, from: sourceIP)
        let changes = EmailChanges(users: users, links: links, store: store, clock: clock)
        return { [users] in
            guard let user = try await users.user(email: email) else { return }
            try await changes.resend(for: user, app: app, redirectTo: redirect, sourceIP: sourceIP)
        }
    }

    /// Checks and counts a request for a link of `kind` to `text`, and returns the work (for
    /// after the caller's answer) that mails it when the address's user passes `wanted`, and
    /// does nothing otherwise: the answer and its time are the same either way.
    private func mailLater(
        _ kind: EmailTokens.Kind, to text: String, app: App, redirectTo: String?, sourceIP: String?,
        codeChallenge: String?, when wanted: @escaping @Sendable (User) -> Bool
    ) async throws -> @Sendable () async throws -> Void {
        let email = try EmailAddress.required(text)
        let redirect = try AppRedirect.resolve(redirectTo, app: app)
        try await countRequest(to: email, from: sourceIP)
        return { [users, links] in
            guard let user = try await users.user(email: email), wanted(user) else { return }
            try await links.send(
                kind, userID: user.id, email: email.value, app: app, redirectTo: redirect, codeChallenge: codeChallenge)
        }
    }

    /// Counts a sign-up or recovery from `sourceIP` and an email to `email`.
    private func countRequest(to email: EmailAddress, from sourceIP: String?) async throws {
        try await countSource(sourceIP)
        try await links.countSend(to: email, from: sourceIP)
    }

    /// Counts a sign-up, recovery or resend from `sourceIP` (`perSourceIP`).
    func countSource(_ sourceIP: String?) async throws {
        if let sourceIP,
            case .limited(let seconds) = try await RateLimiter(store: store, clock: clock).hit(
                Self.perSourceIP, subject: sourceIP)
        {
            throw SignInError.rateLimited(retryAfter: seconds)
        }
    }

    /// The display name an app put in the metadata (`name` or `full_name`), at most 100 bytes.
    static func name(_ metadata: [String: JSONValue]) -> String? {
        for key in ["name", "full_name"] {
            if case .string(let name)? = metadata[key], !name.isEmpty, name.utf8.count <= 100 { return name }
        }
        return nil
    }
}
