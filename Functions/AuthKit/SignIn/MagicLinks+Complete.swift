import GatehouseJSON
import StoreCore

extension MagicLinks {
    /// Where a click on a link sends the browser.
    public enum Completion: Sendable, Equatable {
        /// Signed in: the app's callback with `?code=…`.
        case signedIn(redirect: String)
        /// The link is used or expired: the app's callback with `?error=link_expired`.
        case expired(redirect: String)
        /// No link has that token (or it is long gone): no app to return to.
        case unknown
        /// The user has a verified second factor: the page asking for its code.
        case secondFactor(SecondFactorSignIn.Step)
    }

    /// Consumes the link of `token` (once; a second click is `expired`), finds or creates the
    /// user (provider `email`, named from the address when new), and mints an auth code; with
    /// `secondFactor` (the hosted flow's, `EmailCallback`), a user with a verified TOTP factor
    /// gets its second step instead, whose right code mints it.
    public func complete(token: String, secondFactor: SecondFactorSignIn? = nil) async throws -> Completion {
        let item: Item
        switch try await use(token) {
        case .unknown: return .unknown
        case .spent(let spent):
            await refused(spent)
            return try await expired(spent)
        case .used(let used): item = used
        }
        guard let (email, appID) = live(item) else {
            await refused(item)
            return try await expired(item)
        }
        let platform = try SignInPlatform(item["platform"]?.stringValue)
        let app = try await Self.app(appID, on: platform, store: store)
        let user: User
        let isNew: Bool
        do {
            (user, isNew) = try await account(email, item: item)
        } catch AccountError.linkExpired {
            return try await expired(item)  // sent with `create_user: false`, its user gone since
        }
        let callback = try platform.callback(of: app)
        let challenge = item["codeChallenge"]?.stringValue
        if let step = try await secondFactor?.begin(
            user: user, app: app.id, callback: callback, provider: "email", isNewUser: isNew, codeChallenge: challenge)
        {
            return .secondFactor(step)
        }
        let code = try await AuthCodes(store: store, clock: clock).mint(
            app: app.id, user: user, provider: "email", isNewUser: isNew, codeChallenge: challenge)
        return .signedIn(redirect: "\(callback)?code=\(code)")
    }

    /// Where a click on the link of `token` will return, without using it: its app's callback
    /// for the platform it was sent for; nil for an unknown token or a gone app. The link's page
    /// names it, as browsers check a form's redirects against the page's `form-action`.
    public func callback(for token: String) async throws -> String? {
        guard let key = LinkToken.key(token), let item = try await store.get(Self.table, key: key),
            let platform = try? SignInPlatform(item["platform"]?.stringValue),
            let app = try? await Self.app(item["app"]?.stringValue, on: platform, store: store)
        else { return nil }
        return try? platform.callback(of: app)
    }

    /// Uses the link of `token` for a session started by the caller instead of an auth code
    /// (Supabase's `POST /verify` with `type` `magiclink`): the user (found or created, as a click
    /// does) and the app the link was sent for. `AccountError.linkExpired` for an unknown, used
    /// or expired link.
    /// A link sent with a PKCE challenge signs in here only for that challenge's verifier
    /// (`FlowError.badVerifier` otherwise, the link spent).
    public func signIn(token: String, codeVerifier: String? = nil) async throws -> (user: User, app: String) {
        let (item, email, appID) = try await take(token)
        if let challenge = item["codeChallenge"]?.stringValue, !PKCE.verifies(codeVerifier ?? "", challenge: challenge)
        {
            await refused(item)  // a copy of the link, without the app's verifier
            throw FlowError.badVerifier
        }
        let (user, _) = try await account(email, item: item)
        return (user, appID)
    }

    /// Uses the link whose key is `link` for the code mailed with it (`EmailCodes.redeem`): the
    /// user (found or created, as a click does) and the app the link was sent for. The code
    /// proves the mailbox as the link does, and like Supabase's `verifyOTP` it signs in without
    /// the PKCE verifier: only the mailbox's reader has it. `AccountError.linkExpired` for a
    /// used or expired link.
    func signIn(link: ItemKey) async throws -> (user: User, app: String) {
        let (item, email, appID) = try await take(try await use(key: link))
        let (user, _) = try await account(email, item: item)
        return (user, appID)
    }

    /// Uses the link of `token` as its button on Supabase's verify page does, for a redirect:
    /// a link sent with a PKCE challenge gives a `FlowCodes` code for that challenge and no
    /// session (`authCode`); one sent without gives its user and app, for the caller to start
    /// the session it puts in the redirect's fragment. `AccountError.linkExpired` for an
    /// unknown, used or expired link.
    public func follow(token: String) async throws -> (user: User, app: String, authCode: String?) {
        let (item, email, appID) = try await take(token)
        let (user, _) = try await account(email, item: item)
        guard let challenge = item["codeChallenge"]?.stringValue else { return (user, appID, nil) }
        let code = try await FlowCodes(store: store, clock: clock).mint(
            user: user, app: appID, provider: "email", challenge: challenge)
        return (user, appID, code)
    }

    /// Where the button of the link of `token` returns, before the link is used: `requested`
    /// when it is the link's app's (`AccountError.redirectNotAllowed` otherwise), else the
    /// address recorded when it was sent, else the app's (`AppRedirect`). Nil for an unknown
    /// token or a gone app.
    public func redirect(for token: String, requested: String?) async throws -> String? {
        guard let key = LinkToken.key(token), let item = try await store.get(Self.table, key: key),
            let appID = item["app"]?.stringValue, let app = try await AppRegistry(store: store).app(id: appID)
        else { return nil }
        return try AppRedirect.resolve(requested ?? item["redirectTo"]?.stringValue, app: app)
    }

    /// The user of the link's address, created when new with the link's `data` (its `name` or
    /// `full_name` naming it, else the address's local part), unless the link was sent with
    /// `create_user: false` (`AccountError.linkExpired` then).
    private func account(_ email: EmailAddress, item: Item) async throws -> (user: User, isNew: Bool) {
        if item["createUser"] == false {
            // Sent with `create_user: false`: its user or nothing, even if it was deleted since.
            let users = UserDirectory(store: store, clock: clock)
            guard let user = try await users.user(email: email) else { throw AccountError.linkExpired }
            // The link proved the mailbox: a sign-up waiting for it is confirmed, and its password
            // dropped, as `findOrCreate` does for every other link.
            return (user.emailIsPending ? try await users.confirmEmail(of: user) : user, false)
        }
        let metadata = item["data"]?.objectValue ?? [:]
        return try await UserDirectory(store: store, clock: clock).findOrCreate(
            email: email, name: PasswordSignUp.name(metadata) ?? DisplayName.from(email: email), metadata: metadata)
    }

    /// The link of `token` used now: its record, address and app; `AccountError.linkExpired`
    /// for an unknown, used or expired one.
    private func take(_ token: String) async throws -> (item: Item, email: EmailAddress, app: String) {
        try await take(try await use(token))
    }

    /// `use`'s record, address and app, if it used a live link now; `AccountError.linkExpired`
    /// otherwise (a spent or expired link's try recorded, `refused`).
    private func take(_ use: Use) async throws -> (item: Item, email: EmailAddress, app: String) {
        switch use {
        case .unknown: throw AccountError.linkExpired
        case .spent(let item):
            await refused(item)
            throw AccountError.linkExpired
        case .used(let item):
            guard let (email, appID) = live(item) else {
                await refused(item)
                throw AccountError.linkExpired
            }
            return (item, email, appID)
        }
    }

    /// Records the use of a spent or expired link (or one without its PKCE verifier) as a
    /// refused sign-in of its address's user (read after the answer; none when the address has
    /// no account, or only one made since the link expired), for the app it was sent for: a
    /// second use of a link can be someone else's copy of it. Once per link: the first refusal
    /// marks the link (`refusedAt`, a conditional write while the caller waits), so that sending
    /// it again and again adds nothing to the log (each try still costs that failed write). A
    /// token no link has is not recorded: it names no user, and anyone can make them up.
    private func refused(_ item: Item) async {
        guard let hash = item["tokenHash"],
            (try? await store.update(
                Self.table, key: ItemKey(hash), actions: [.set("refusedAt", .number(clock.now))],
                condition: .itemExistsWithAttributeBelow("refusedAt", 1))) != nil
        else { return }
        let email = item["email"]?.stringValue.flatMap(EmailAddress.init)
        let expiresAt = item["expiresAt"]?.numberValue ?? 0
        let users = UserDirectory(store: store, clock: clock)
        await audit.record(.signIn, app: item["app"]?.stringValue, outcome: .failure(.wrongCode), method: .otp) {
            // Only an account the address had while the link worked: one made after (the old one
            // deleted, say) is someone else's, and the old link's use is not put in its feed.
            guard let email, let user = try await users.user(email: email), user.createdAt <= expiresAt else {
                return nil
            }
            return user.id
        }
    }

    /// A just-used link's address and app, while it is unexpired; nil otherwise.
    private func live(_ item: Item) -> (email: EmailAddress, app: String)? {
        guard let expiresAt = item["expiresAt"]?.numberValue, clock.now * 1000 < expiresAt,
            let email = item["email"]?.stringValue.flatMap(EmailAddress.init),
            let appID = item["app"]?.stringValue
        else { return nil }
        return (email, appID)
    }

    private enum Use {
        case unknown
        /// Used before: its record.
        case spent(Item)
        /// Used now, by this call: its record.
        case used(Item)
    }

    /// Flips the link of `token` from pending to used, once however many uses race.
    private func use(_ token: String) async throws -> Use {
        guard let key = LinkToken.key(token) else { return .unknown }
        return try await use(key: key)
    }

    /// Flips the link at `key` from pending to used, once however many uses race.
    private func use(key: ItemKey) async throws -> Use {
        do {
            return .used(
                try await store.update(
                    Self.table, key: key, actions: [.set("state", "used")],
                    condition: .attributeEquals("state", "pending")))
        } catch StoreError.conditionFailed {
            return try await store.get(Self.table, key: key).map(Use.spent) ?? .unknown
        }
    }

    /// The app's callback with `error=link_expired`, or `unknown` when its app is gone.
    private func expired(_ item: Item) async throws -> Completion {
        guard let platform = try? SignInPlatform(item["platform"]?.stringValue),
            let app = try? await Self.app(item["app"]?.stringValue, on: platform, store: store)
        else { return .unknown }
        return .expired(redirect: "\(try platform.callback(of: app))?error=link_expired")
    }
}
