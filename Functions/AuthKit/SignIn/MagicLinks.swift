import GatehouseJSON
import StoreCore

/// Sign-in by email magic link: `send` mails a one-time link, `complete` turns its click into an
/// auth code for the app.
///
/// - The link's token is 48 random bytes (64 URL-safe characters), stored only as its SHA-256
///   (hex, the `tokenHash` key) with the app, the address and the platform; it works for 15
///   minutes (`MAGIC_LINK_TTL_SECONDS`), once: `complete` flips its state from pending to used with a conditional write,
///   so one click wins however many race. The record is kept a day past its expiry so that a
///   late or second click still finds the app to return to (with `error=link_expired`).
/// - `send` never looks the address up: whether an account exists or not, the same writes
///   happen and the same answer goes back, so neither its answer nor its time tells. Only
///   `prepare` with `createUser` false looks it up, and then leaves the writes and the mail for
///   after the answer.
/// - Rate limits (exact, see `RateLimiter`): 30 per 5 minutes per source IP on the public
///   route; per address, `AddressAllowance`'s 5 an hour per address and source, and 5 fresh
///   ones an hour per address (a request while the address's last link is live is not a fresh
///   one), so no stranger's requests use up the owner's. Counted for every valid request; over
///   any, nothing is sent. Links are stored only as hashes, so a request while one is live mails
///   a new link, and the earlier one stays good until it expires.
public struct MagicLinks: Sendable {
    public static let table = "MagicLinks"
    /// How long a link works by default, in seconds (`MAGIC_LINK_TTL_SECONDS`).
    public static let defaultLifetime: Double = 900
    /// How long a used or expired link is remembered after its expiry, in seconds.
    static let memory: Double = 86400
    public static let perAddress = AddressAllowance(name: "magic-link", limit: 5)
    public static let perSourceIP = RateLimit.perSource(name: "magic-link:ip", limit: 30, window: 300)

    let store: any KeyValueStore
    let clock: any StoreClock
    private let sender: any MessageSender
    /// The public base URL of the API (`ISSUER`): links point at `{issuer}/auth/email-callback`.
    private let issuer: String
    /// How long a link works, in seconds.
    public let lifetime: Double
    /// The six-digit codes mailed with the links (Supabase's `/otp` email, whose code
    /// `verifyOTP(email:token:type: .email)` takes); nil: the emails carry links only.
    let codes: EmailCodes?
    /// Where a spent or expired link's use is recorded (off unless set; a function's follows its
    /// `STORE_ACCESS`, `AuditLog(environment:)`).
    public var audit: AuditLog

    /// `secret`: the OTP secret the emails' codes are kept under; nil, the emails carry no code.
    public init(
        store: any KeyValueStore, clock: any StoreClock, sender: any MessageSender, issuer: String,
        lifetime: Double = MagicLinks.defaultLifetime, secret: OTPSecret? = nil
    ) {
        self.store = store
        self.clock = clock
        self.sender = sender
        self.issuer = issuer
        self.lifetime = lifetime
        self.codes = secret.map { EmailCodes(store: store, clock: clock, secret: $0) }
        self.audit = AuditLog(store: store, clock: clock, isEnabled: false)
    }

    /// The service a function runs: `ISSUER` from `SessionSettings`, the sender `EMAIL_DELIVERY`
    /// names (SES through `remote`), `MAGIC_LINK_TTL_SECONDS` (1 to 3600, 900 by default), the
    /// audit log its `STORE_ACCESS` grants, and the wall clock.
    /// With `mailsCodes`, each email also carries a six-digit code when the OTP secret is set
    /// (`OTPSecret.optional`), as Supabase's `/otp` email does.
    public init(
        environment: [String: String], store: any KeyValueStore, remote: (any RemoteSenders)? = nil,
        mailsCodes: Bool = false
    ) throws {
        let settings = try SessionSettings(environment: environment)
        let delivery = try DeliverySettings(environment: environment)
        let lifetime = try EnvironmentReader(environment: environment).seconds(
            "MAGIC_LINK_TTL_SECONDS", default: Self.defaultLifetime)
        guard (1...3600).contains(lifetime) else {
            throw SettingsError.invalid("MAGIC_LINK_TTL_SECONDS", "must be 1 to 3600 seconds")
        }
        let clock = SystemStoreClock()
        self.init(
            store: store, clock: clock, sender: try delivery.sender(.email, store: store, clock: clock, remote: remote),
            issuer: settings.issuer, lifetime: lifetime,
            secret: mailsCodes ? try OTPSecret.optional(environment: environment) : nil)
        audit = try AuditLog(environment: environment, store: store, clock: clock)
    }

    /// Mails a sign-in link to `email` for `app`. `sourceIP` is the caller's address on the
    /// public route (nil on the server-to-server one, whose caller is an app's backend); a
    /// `codeChallenge` (PKCE S256) binds the auth code the click makes to its verifier.
    ///
    /// With `redirectTo` (Supabase's `/otp` and `/magiclink`; it must be the app's, checked by
    /// `AppRedirect` before anything is counted or written: `AccountError.redirectNotAllowed`),
    /// the link is Supabase's `/auth/v1/verify?token=…&type=magiclink&redirect_to=…`, whose
    /// button returns there (`follow(token:)`); without it, `/auth/email-callback?token=…`.
    /// `metadata` (Supabase's `data`, at most 16 KB) becomes the user's if the click creates it.
    public func send(
        email text: String?, app appID: String?, platform: String?, sourceIP: String?, codeChallenge: String? = nil,
        redirectTo: String? = nil, metadata: [String: JSONValue] = [:]
    ) async throws {
        try await prepare(
            email: text, app: appID, platform: platform, sourceIP: sourceIP, codeChallenge: codeChallenge,
            redirectTo: redirectTo, metadata: metadata, createUser: true)()
    }

    /// `send`'s checks and counts, made now, and the rest (the link recorded and mailed) as work
    /// for after the answer. With `createUser` false (Supabase's `create_user: false`) the work
    /// first looks the address's user up, and for none does nothing: no link, no mail; the
    /// caller answers alike either way and runs the work after its answer, so neither the
    /// answer nor its time tells whether the address has an account. Such a link's click finds
    /// its user (confirming a sign-up that waits) or fails as expired; it never creates one.
    public func prepare(
        email text: String?, app appID: String?, platform: String?, sourceIP: String?, codeChallenge: String?,
        redirectTo: String?, metadata: [String: JSONValue], createUser: Bool
    ) async throws -> @Sendable () async throws -> Void {
        guard let text else { throw SignInError.invalidField("email", "is required") }
        guard let email = EmailAddress(text) else {
            throw SignInError.invalidField("email", "is not an email address")
        }
        let platform = try SignInPlatform(platform)
        let challenge = try PKCE.challenge(from: codeChallenge)
        let app = try await Self.app(appID, on: platform, store: store)
        let target = try redirectTo.map { try AppRedirect.resolve($0, app: app) }
        // Checked and cleaned (a `null` member removes nothing from a user not yet made) now,
        // before anything is counted; stored as the merge leaves it.
        let data = try PasswordAccounts.merge(metadata, into: [:])
        let limiter = RateLimiter(store: store, clock: clock)
        if let sourceIP, case .limited(let seconds) = try await limiter.hit(Self.perSourceIP, subject: sourceIP) {
            throw SignInError.rateLimited(retryAfter: seconds)
        }
        try await Self.perAddress.count(email.value, sourceIP: sourceIP, lifetime: lifetime, store: store, clock: clock)
        let extras: [String: JSONValue?] = [
            "codeChallenge": challenge.map(JSONValue.string), "redirectTo": target.map(JSONValue.string),
            "data": data.isEmpty ? nil : .object(data), "createUser": createUser ? nil : false,
        ]
        return { [self] in
            // Looked up only here, after the caller's answer: its reads must not show in its time.
            if !createUser, try await UserDirectory(store: store, clock: clock).user(email: email) == nil { return }
            let (token, hash) = LinkToken.make()
            let expires = clock.now + lifetime
            try await record(hash, email: email, app: app.id, platform: platform, expires: expires, extras: extras)
            let link = self.link(token, redirectTo: target)
            var text = "Sign in to \(app.name):\n\n\(link)\n\n"
            if let codes {
                let code = try await codes.issue(
                    Self.codeSlot(app: app.id), email: email.value, link: hash, expires: expires)
                text += "Or enter this code: \(code)\n\n"
            }
            try await sender.send(
                OutgoingMessage(
                    channel: .email, recipient: email.value, subject: "Sign in to \(app.name)",
                    text: text
                        + "It works once, for \(Self.minutes(lifetime)). If you did not ask for it, ignore this email.",
                    secret: link, app: app.id))
        }
    }

    /// Where the code of a link sent for `app` is kept: one per address and app.
    static func codeSlot(app: String) -> EmailCodes.Slot { EmailCodes.Slot(table: table, purpose: "magiclink:\(app)") }

    /// The address mailed for `token`: Supabase's verify route when the link returns to
    /// `redirectTo`, the email callback otherwise.
    func link(_ token: String, redirectTo: String?) -> String {
        guard let redirectTo else { return "\(issuer)/auth/email-callback?token=\(token)" }
        let query = FormEncoding.encode([("token", token), ("type", "magiclink"), ("redirect_to", redirectTo)])
        return "\(issuer)/auth/v1/verify?\(query)"
    }

    /// `seconds` in words: "15 minutes", "1 minute", "30 seconds".
    static func minutes(_ seconds: Double) -> String {
        let whole = Int(seconds)
        if whole % 60 != 0 { return "\(whole) second\(whole == 1 ? "" : "s")" }
        return "\(whole / 60) minute\(whole == 60 ? "" : "s")"
    }

    /// The app `id` names, able to take a sign-in back on `platform`.
    static func app(_ id: String?, on platform: SignInPlatform, store: any KeyValueStore) async throws -> App {
        guard let id, !id.isEmpty else { throw SignInError.invalidField("app", "is required") }
        guard let app = try await AppRegistry(store: store).app(id: id) else { throw SignInError.unknownApp }
        _ = try platform.callback(of: app)
        return app
    }

    func record(
        _ tokenHash: String, email: EmailAddress, app: String, platform: SignInPlatform, expires: Double,
        extras: [String: JSONValue?]
    ) async throws {
        var item: Item = [
            "tokenHash": .string(tokenHash), "app": .string(app), "email": .string(email.value),
            "platform": .string(platform.rawValue), "state": "pending",
            "expiresAt": .number((expires * 1000).rounded(.down)), "ttl": .number((expires + Self.memory).rounded(.up)),
        ]
        for (name, value) in extras { item[name] = value }
        try await store.put(Self.table, item: item, condition: .itemNotExists)
    }
}
