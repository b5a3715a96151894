import GatehouseJSON
import StoreCore

/// What a new password or a new address asks of a session (Supabase's secure password change
/// and `/reauthenticate`): a recent sign-in, or a six-digit nonce mailed to the account's address.
///
/// - A session is recent for `window` seconds after it started (`RECENT_SIGN_IN_SECONDS`, an
///   hour by default). A session a sign-up, recovery or magic link started is new, so the person
///   who just proved the address can set a password at once; a stolen session a day old cannot.
/// - `send` mails a nonce (valid 15 minutes, the latest one only), kept as an HMAC under the OTP
///   secret when there is one (else as SHA-256 of the user, the nonce and a random salt).
/// - Tries are counted before each comparison: 5 an hour per user lock that user's nonces for
///   the hour, and 30 per source IP in 5 minutes are refused.
public struct Reauthentication: Sendable {
    public static let defaultWindow: Double = 3600

    /// `RECENT_SIGN_IN_SECONDS` (an hour by default): how long after its start a session counts
    /// as recent.
    public static func window(environment: [String: String]) throws -> Double {
        try EnvironmentReader(environment: environment).seconds("RECENT_SIGN_IN_SECONDS", default: defaultWindow)
    }
    public static let nonceLifetime: Double = 900
    public static let perSourceIP = ReauthenticationNonces.perSourceIP

    /// How long after its start a session counts as recent, in seconds.
    public let window: Double
    let store: any KeyValueStore
    let clock: any StoreClock
    let links: EmailTokens
    /// The check of the nonces this mails, kept under the same secret.
    let nonces: ReauthenticationNonces

    public init(
        store: any KeyValueStore, clock: any StoreClock, links: EmailTokens, secret: OTPSecret?,
        window: Double = Reauthentication.defaultWindow
    ) {
        self.store = store
        self.clock = clock
        self.links = links
        nonces = ReauthenticationNonces(store: store, clock: clock, secret: secret)
        self.window = window
    }

    /// Whether the session of `bearer` started less than `window` seconds ago (`RecentSignIn`).
    public func isRecent(_ bearer: AccessTokens.Bearer) async throws -> Bool {
        try await RecentSignIn(store: store, clock: clock, window: window).isRecent(bearer)
    }

    /// Passes when `bearer`'s session is recent or `nonce` is the one mailed to its user (used
    /// up); else `AccountError.reauthenticationNeeded` (no nonce) or `reauthenticationNotValid`.
    public func require(_ bearer: AccessTokens.Bearer, nonce: String?, sourceIP: String?) async throws {
        if try await isRecent(bearer) { return }
        guard let nonce else { throw AccountError.reauthenticationNeeded }
        try await nonces.consume(nonce, userID: bearer.userID, sourceIP: sourceIP)
    }

    /// `require` for a change that adds a way to sign in to `user` (a password, an address, a
    /// linked identity), except for an anonymous user: its session is all it has, so there is
    /// nothing else to re-prove and no address a nonce could go to. A session begun anonymously
    /// is never recent for a user made permanent since: it proved nothing about the address then
    /// confirmed (whoever confirmed it may not hold that session), so only the nonce mailed there
    /// passes.
    public func require(
        _ bearer: AccessTokens.Bearer, of user: User, nonce: String?, sourceIP: String?
    ) async throws {
        guard !user.isAnonymous else { return }
        guard bearer.sessionMethod == AnonymousSignIn.method else {
            return try await require(bearer, nonce: nonce, sourceIP: sourceIP)
        }
        guard let nonce else { throw AccountError.reauthenticationNeeded }
        try await nonces.consume(nonce, userID: bearer.userID, sourceIP: sourceIP)
    }

    /// Mails a fresh nonce to `user`'s address, asked for from `sourceIP` (counted against
    /// `EmailTokens.perAddress`); `AccountError.reauthenticationNotValid` for a user without one.
    public func send(to user: User, app: App, sourceIP: String?) async throws {
        guard let email = user.email.flatMap(EmailAddress.init) else { throw AccountError.reauthenticationNotValid }
        try await links.countSend(to: email, from: sourceIP)
        let nonce = PhoneCodes.sixDigits(UInt32.random(in: 0..<1_000_000))
        let salt = RandomToken.urlSafe(byteCount: 16)
        let expires = clock.now + Self.nonceLifetime
        try await store.put(
            EmailTokens.table,
            item: [
                "tokenHash": .string(ReauthenticationNonces.key(user.id)), "salt": .string(salt),
                "nonceHash": .string(nonces.digest(nonce, userID: user.id, salt: salt)),
                "expiresAt": .number(expires * 1000), "ttl": .number(expires.rounded(.up)),
            ], condition: nil)
        try await links.notify(
            email.value, subject: "Your \(app.name) verification code",
            text: "Enter this code to confirm the change to your \(app.name) account: \(nonce)\n\n"
                + "It confirms a new password, a new email address, or deleting the account, whichever "
                + "you asked for. It works once, for 15 minutes. If you did not ask for it, ignore this "
                + "email and do not give the code to anyone.",
            app: app, secret: nonce)
    }
}
