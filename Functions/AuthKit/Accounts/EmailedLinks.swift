import StoreCore

/// The two kinds of emailed link that one verify route takes, told apart by where the token is
/// stored: an account email's link (`EmailTokens`: sign-up, recovery, address change) or a
/// sign-in link (`MagicLinks`, sent with a `redirect_to` by Supabase's `/otp` and `/magiclink`).
/// Which one a token is, and what using it does, is decided here; an edge says only which kinds
/// a request may use.
public struct EmailedLinks: Sendable {
    public let accounts: PasswordAccounts
    public let magicLinks: MagicLinks

    public init(accounts: PasswordAccounts, magicLinks: MagicLinks) {
        self.accounts = accounts
        self.magicLinks = magicLinks
    }

    /// Where the link of `token` returns, checked against its app before it is used
    /// (`AccountError.redirectNotAllowed` for a `requested` address that is not the app's); nil
    /// for a token of neither kind.
    public func redirect(for token: String, requested: String?) async throws -> String? {
        if let target = try await accounts.redirect(for: token, requested: requested) { return target }
        return try await magicLinks.redirect(for: token, requested: requested)
    }

    /// Uses the link of `token` for its page's button: an account link of one of `kinds`, or,
    /// when `signInLinks` allows one, a sign-in link. A PKCE flow's link gives its auth code
    /// (`Verified.authCode`, no session); another, its session (or an address change's
    /// progress). `AccountError.linkExpired` for an unknown, used or expired link.
    public func follow(
        _ token: String, kinds: Set<EmailTokens.Kind>, signInLinks: Bool
    ) async throws -> PasswordAccounts.Verified {
        guard try await isSignInLink(token, allowed: signInLinks) else {
            return try await accounts.follow(token: token, kinds: kinds)
        }
        let (user, app, code) = try await magicLinks.follow(token: token)
        if let code { return .signInLink(user: nil, session: nil, authCode: code) }
        let (started, session) = try await accounts.startSession(for: user, app: app)
        return .signInLink(user: started, session: session, authCode: nil)
    }

    /// `follow`, for a sign-up link whose page was given the password chosen at sign-up
    /// (`PasswordAccounts.follow(token:kinds:signUpPassword:sourceIP:)`); a sign-in link ignores
    /// it.
    public func follow(
        _ token: String, kinds: Set<EmailTokens.Kind>, signInLinks: Bool, signUpPassword: String, sourceIP: String?
    ) async throws -> PasswordAccounts.Verified {
        guard try await isSignInLink(token, allowed: signInLinks) else {
            return try await accounts.follow(
                token: token, kinds: kinds, signUpPassword: signUpPassword, sourceIP: sourceIP)
        }
        return try await follow(token, kinds: kinds, signInLinks: signInLinks)
    }

    /// Uses the link of `token` for an API call (a `token_hash`): the session. A link sent in the
    /// PKCE flow signs in only with its challenge's `codeVerifier` (`FlowError.badVerifier`
    /// otherwise, the link spent).
    public func verify(
        _ token: String, kinds: Set<EmailTokens.Kind>, signInLinks: Bool, codeVerifier: String?
    ) async throws -> PasswordAccounts.Verified {
        guard try await isSignInLink(token, allowed: signInLinks) else {
            return try await accounts.verify(token: token, kinds: kinds, codeVerifier: codeVerifier)
        }
        let (linked, app) = try await magicLinks.signIn(token: token, codeVerifier: codeVerifier)
        let (user, session) = try await accounts.startSession(for: linked, app: app)
        return .signInLink(user: user, session: session, authCode: nil)
    }

    /// Uses the link whose six-digit code `code` was mailed to `email` (Supabase's `{email,
    /// token}` form of `/verify`): an account link of one of `kinds`, or, when `signInLinks`
    /// allows one, the sign-in link last mailed for `app` (`/otp`'s). Each try is counted and
    /// limited as `EmailCodes.redeem` says, once for every link it may stand for. A sign-up's
    /// password is kept only with `keepsSignUpPassword` (not for an invitation's code).
    /// `AccountError.linkExpired` for a wrong, used or expired code, or without the OTP secret.
    public func verify(
        email text: String, code: String, kinds: Set<EmailTokens.Kind>, signInLinks: Bool, sourceIP: String?,
        app: String, keepsSignUpPassword: Bool = true
    ) async throws -> PasswordAccounts.Verified {
        let email = try EmailAddress.required(text)
        guard let codes = accounts.links.codes else { throw AccountError.linkExpired }
        var slots = EmailTokens.codeSlots(kinds)
        if signInLinks { slots.append(MagicLinks.codeSlot(app: app)) }
        let (slot, link): (EmailCodes.Slot, ItemKey)
        do {
            (slot, link) = try await codes.redeem(email: email, code: code, slots: slots, sourceIP: sourceIP, app: app)
        } catch {
            await accounts.sessions.recordRefusedCode(error, at: .email(email), app: app)
            throw error
        }
        guard slot.table == MagicLinks.table else {
            // Typed where sign-in codes go, a sign-up's code may be someone else's: its password goes.
            return try await accounts.verify(
                link: link, kinds: kinds, keepsSignUpPassword: keepsSignUpPassword && !signInLinks)
        }
        let (linked, linkApp) = try await magicLinks.signIn(link: link)
        let (user, session) = try await accounts.startSession(for: linked, app: linkApp)
        return .signInLink(user: user, session: session, authCode: nil)
    }

    /// Whether `token` is to be used as a sign-in link: allowed, and not an account email's.
    private func isSignInLink(_ token: String, allowed: Bool) async throws -> Bool {
        guard allowed else { return false }
        return try await accounts.links.peek(token) == nil
    }
}

extension PasswordAccounts.Verified {
    /// A sign-in link used: its user signed in, or its PKCE flow's code.
    static func signInLink(user: User?, session: SessionResponse?, authCode: String?) -> Self {
        .init(
            kind: .signup, redirectTo: "", user: user, session: session, change: nil, authCode: authCode,
            isSignInLink: true)
    }
}
