import GatehouseJSON
import StoreCore

extension PasswordAccounts {
    /// What a used link gives, and where the browser goes.
    public struct Verified: Sendable {
        public let kind: EmailTokens.Kind
        public let redirectTo: String
        /// A sign-up or recovery link's user, signed in; nil for an address change's link.
        public let user: User?
        public let session: SessionResponse?
        /// An address change's link: where the change stands (it never signs anyone in).
        public let change: EmailChanges.Progress?
        /// A PKCE flow's link followed (`follow`): the auth code its redirect carries instead of
        /// a session (`FlowCodes`).
        public let authCode: String?
        /// A sign-in link's (`MagicLinks`), not an account email's: `kind` is then `signup`.
        public let isSignInLink: Bool

        public init(
            kind: EmailTokens.Kind, redirectTo: String, user: User?, session: SessionResponse?,
            change: EmailChanges.Progress?, authCode: String? = nil, isSignInLink: Bool = false
        ) {
            self.isSignInLink = isSignInLink
            self.kind = kind
            self.redirectTo = redirectTo
            self.user = user
            self.session = session
            self.change = change
            self.authCode = authCode
        }
    }

    /// Uses a link of one of `kinds`:
    /// - `signup` confirms the address it was sent to and signs its user in; `recovery` signs in
    ///   (the app then asks for a new password), confirming the address too. Confirming keeps
    ///   the password chosen at sign-up only for the sign-up's own client: a link sent with a
    ///   PKCE challenge and used with its verifier here keeps it; otherwise it goes
    ///   (`UserDirectory.confirmEmail`): whoever uses the link has the mailbox, but whoever signed
    ///   up may not have, so the owner sets a password from the session the link starts.
    /// - `email_change` confirms its address's side of the change (`EmailChanges`).
    /// A link whose user or address has changed since it was sent is refused as expired.
    ///
    /// A link sent with a PKCE challenge starts a session here only for the verifier of that
    /// challenge (`FlowError.badVerifier` otherwise, the link spent): whoever else holds the
    /// link (a scanner, a forwarded mail) gets nothing a client in the PKCE flow would not.
    public func verify(
        token: String, kinds: Set<EmailTokens.Kind>, codeVerifier: String? = nil
    ) async throws -> Verified {
        let record = try await links.consume(token, kinds: kinds)
        if let challenge = record.codeChallenge, !PKCE.verifies(codeVerifier ?? "", challenge: challenge) {
            throw FlowError.badVerifier
        }
        // The sign-up's own verifier: its client used the link, and keeps its password.
        return try await use(
            record, redirecting: false, password: record.codeChallenge.map { .kept(challenge: $0) } ?? .dropped)
    }

    /// Uses a link as its button does, for a redirect: as `verify(token:kinds:)`, except that a
    /// link sent with a PKCE challenge (a sign-up's or a recovery's) starts no session: its user
    /// (the address confirmed) gets an auth code that only the client holding the verifier
    /// exchanges (`FlowCodes`), so no token ever travels in the redirect. A sign-up's password
    /// is held until that exchange (`SignUpPassword.held`), which proves the browser's press
    /// came back to the client that signed up.
    public func follow(token: String, kinds: Set<EmailTokens.Kind>) async throws -> Verified {
        let record = try await links.consume(token, kinds: kinds)
        return try await use(
            record, redirecting: true, password: record.codeChallenge.map { .held(challenge: $0) } ?? .dropped)
    }

    /// Uses a sign-up's link as its page's button does in the implicit flow, given the password
    /// its presser says was chosen at sign-up (`password`): right, the address is confirmed and
    /// the password kept, as Supabase keeps it; wrong, `AccountError.invalidCredentials` and the
    /// link stays unused. Knowing the password proves what a PKCE flow's verifier proves: the
    /// presser signed up. Tries count as password sign-in's do (`PasswordAttempts`: per address
    /// and per source). A link that is no implicit-flow sign-up's is followed as `follow` does.
    public func follow(
        token: String, kinds: Set<EmailTokens.Kind>, signUpPassword password: String, sourceIP: String?
    ) async throws -> Verified {
        guard let (record, user) = try await waitingSignUp(token), kinds.contains(record.kind),
            let email = EmailAddress(record.email)
        else { return try await follow(token: token, kinds: kinds) }
        // Locked (`SignInError.locked`) or over the source's limit: the page says so.
        try await attempts.begin(account: email.value, sourceIP: sourceIP)
        let (_, stored, _) = try await check(password, of: user, account: email.value, sourceIP: sourceIP)
        return try await use(
            try await links.consume(token, kinds: kinds), redirecting: true, password: .keptByPassword(hash: stored))
    }

    /// Whether the page of `token`'s link asks for the password chosen at sign-up: an
    /// implicit-flow sign-up's link (no PKCE challenge), its address still waiting.
    public func asksForSignUpPassword(token: String) async throws -> Bool {
        try await waitingSignUp(token) != nil
    }

    /// The live implicit-flow sign-up link of `token` and its user, whose address still waits
    /// for it; nil for anything else.
    private func waitingSignUp(_ token: String) async throws -> (record: EmailTokens.Record, user: User)? {
        guard let record = try await links.peekLive(token), record.kind == .signup, record.codeChallenge == nil,
            let user = try await sessions.users.user(id: record.userID), user.email == record.email,
            user.emailIsPending
        else { return nil }
        return (record, user)
    }

    /// `verify(token:kinds:)` for the six-digit code mailed to `email` with the link; each try
    /// counted and limited as `EmailCodes.redeem` says. `AccountError.linkExpired` for a wrong,
    /// used or expired code, or without the OTP secret.
    public func verify(
        email text: String, code: String, kinds: Set<EmailTokens.Kind>, sourceIP: String?, app: String
    ) async throws -> Verified {
        let email = try EmailAddress.required(text)
        guard let codes = links.codes else { throw AccountError.linkExpired }
        let link: ItemKey
        do {
            (_, link) = try await codes.redeem(
                email: email, code: code, slots: EmailTokens.codeSlots(kinds), sourceIP: sourceIP, app: app)
        } catch {
            await sessions.recordRefusedCode(error, at: .email(email), app: app)
            throw error
        }
        return try await verify(link: link, kinds: kinds, keepsSignUpPassword: true)
    }

    /// `verify(token:kinds:)` for the link at `link`, whose code was just redeemed
    /// (`EmailCodes.redeem`). A sign-up's password is kept, as Supabase keeps it, only when the
    /// code was sent to confirm a sign-up (`keepsSignUpPassword`: `type` `signup`, the sign-up
    /// screen's); a code typed where sign-in codes go (`email`, `magiclink`) drops it, since the
    /// address's owner may type there the code of someone else's sign-up mailed to them
    /// (`SignUpPassword.keptByCode` says why the sign-up screen's may keep it).
    func verify(link: ItemKey, kinds: Set<EmailTokens.Kind>, keepsSignUpPassword: Bool) async throws -> Verified {
        try await use(
            try await links.consume(key: link, kinds: kinds), redirecting: false,
            password: keepsSignUpPassword ? .keptByCode : .dropped)
    }

    /// Uses `record`; a sign-up's confirmation does to its password what `password` says (any
    /// other kind's drops it).
    private func use(
        _ record: EmailTokens.Record, redirecting: Bool, password: SignUpPassword
    ) async throws -> Verified {
        guard record.kind != .emailChange else {
            let progress = try await emailChanges.confirm(record, app: try await sessions.apps.app(id: record.app))
            if case .changed = progress {
                await sessions.audit.record(.emailChange, userID: record.userID, app: record.app)
            }
            return Verified(kind: record.kind, redirectTo: record.redirectTo, user: nil, session: nil, change: progress)
        }
        guard var user = try await sessions.users.user(id: record.userID), user.email == record.email else {
            throw AccountError.linkExpired
        }
        if user.emailIsPending {
            user = try await sessions.users.confirmEmail(
                of: user, password: record.kind == .signup ? password : .dropped)
        }
        if record.kind == .recovery {
            await sessions.audit.record(.recovery, userID: user.id, app: record.app)
        }
        if redirecting, let challenge = record.codeChallenge {
            let code = try await FlowCodes(store: store, clock: clock).mint(
                user: user, app: record.app, provider: "email", challenge: challenge)
            return Verified(
                kind: record.kind, redirectTo: record.redirectTo, user: user, session: nil, change: nil,
                authCode: code)
        }
        let (signedIn, session) = try await startSession(for: user, app: record.app)
        return Verified(kind: record.kind, redirectTo: record.redirectTo, user: signedIn, session: session, change: nil)
    }

    /// Where a link of `token` would return to, checked against its app, before the link is
    /// used: `redirectTo` when it is the app's (`AccountError.redirectNotAllowed` otherwise),
    /// else the one recorded when it was sent. Nil for an unknown token.
    public func redirect(for token: String, requested redirectTo: String?) async throws -> String? {
        guard let record = try await links.peek(token) else { return nil }
        guard let redirectTo else { return record.redirectTo }
        guard let app = try await sessions.apps.app(id: record.app) else { return nil }
        return try AppRedirect.resolve(redirectTo, app: app)
    }
}
