import GatehouseJSON
import StoreCore

/// The hosted sign-in's second step: a user who completes the first factor in the browser (a
/// magic link's button, `MagicLinks.complete`) and has a verified TOTP factor gets a page asking
/// for the authenticator's code instead of the app's auth code; so does one who returns from
/// Google or Apple through the hosted page's OAuth flow (`OAuthFlow.complete`). The right code,
/// posted to `EmailCallback` either way, mints that auth code, whose session starts at `aal2`
/// (`SecondFactorProof`).
///
/// What waits between the two is server-side, in `Factors` under the user's partition
/// (`signin:<SHA-256 of the handle's secret>`): the app, its callback, the PKCE challenge, the
/// SHA-256 of a browser secret, and the tries made. The page's form carries the handle; the
/// browser secret is in a cookie (`HttpOnly`, `SameSite=Strict`, `FlowCookies`), so the handle
/// alone, copied elsewhere, does nothing. It lasts 5 minutes, works once (deleted in the
/// transaction that mints the code), and allows `maximumTries` codes; every wrong code also
/// counts against the limits of a session's verify (`FactorGuesses`: per source, factor and
/// user), and a code works once (the factor's `lastStep`), whichever way it was used first.
public struct SecondFactorSignIn: Sendable {
    /// How long the second step waits for its code, in seconds: 5 minutes.
    public static let lifetime: Double = 300
    /// Codes one second step takes; the last wrong one ends it.
    public static let maximumTries = 3
    static let cookieName = "gh_mfa"

    let store: any KeyValueStore
    let clock: any StoreClock
    /// Nil without an OTP secret: a step can begin (the OAuth callback begins them and opens
    /// no secret), but not finish (`FactorError.totpNotEnabled`); nobody signs in without it.
    let box: FactorSecretBox?
    let cookies: FlowCookies

    /// `issuer`: the API's public base URL, which the cookie's attributes follow.
    public init(store: any KeyValueStore, clock: any StoreClock, secret: OTPSecret?, issuer: String) {
        self.store = store
        self.clock = clock
        box = secret.map(FactorSecretBox.init(secret:))
        cookies = FlowCookies(issuer: issuer)
    }

    /// The second step a function runs: the OTP secret `environment` configures (the one the
    /// factors' secrets are sealed under) when `finishing`, `ISSUER`, the wall clock.
    public init(environment: [String: String], store: any KeyValueStore, finishing: Bool = true) throws {
        self.init(
            store: store, clock: SystemStoreClock(),
            secret: finishing ? try OTPSecret.optional(environment: environment) : nil,
            issuer: try SessionSettings(environment: environment).issuer)
    }

    /// What the code page shows and posts back.
    public struct Step: Sendable, Equatable {
        /// The form's hidden `pending` field.
        public let handle: String
        /// The user's verified TOTP factors to choose from (id and name), oldest first.
        public let factors: [Choice]
        /// The app's callback, where the right code's redirect goes (the page's `form-action`).
        public let callback: String
        /// The browser secret's `Set-Cookie` on the first page; nil on a page after a wrong code.
        public let cookie: String?
        /// Codes left before the step ends.
        public let triesLeft: Int
    }

    /// A factor the page offers.
    public struct Choice: Sendable, Equatable {
        public let id: String
        public let name: String
    }

    /// The second step for `user`, who has just proved the first factor (`provider`) for `app`
    /// on the way back to `callback`: nil when the user has no verified TOTP factor.
    public func begin(
        user: User, app: String, callback: String, provider: String, isNewUser: Bool, codeChallenge: String?
    ) async throws -> Step? {
        let factors = try await Self.factors(of: user.id, in: store)
        guard !factors.isEmpty else { return nil }
        let secret = RandomToken.urlSafe(byteCount: 32)
        let browser = RandomToken.urlSafe(byteCount: 32)
        let expires = (clock.now + Self.lifetime).rounded(.down)
        var item: Item = [
            "userId": .string(user.id), "entry": .string(Self.entry(secret)), "app": .string(app),
            "callback": .string(callback), "provider": .string(provider), "isNewUser": .bool(isNewUser),
            "browser": .string(SHA256Hex.of(browser.utf8)), "tries": 0, "expiresAt": .number(expires),
            "ttl": .number(expires),
        ]
        if let codeChallenge { item["codeChallenge"] = .string(codeChallenge) }
        try await store.put(Factors.table, item: item, condition: .itemNotExists)
        return Step(
            handle: "\(secret).\(user.id)", factors: factors.map { Choice(id: $0.id, name: $0.friendlyName) },
            callback: callback,
            cookie: cookies.cookie(Self.cookieName, browser, maxAge: Int(Self.lifetime), sameSite: "Strict"),
            triesLeft: Self.maximumTries)
    }

    /// The name the browser secret's cookie is read under.
    public var cookieName: String { cookies.name(Self.cookieName) }

    /// `userID`'s verified TOTP factors, oldest first.
    static func factors(of userID: String, in store: any KeyValueStore) async throws -> [Factor] {
        try await Factors.list(userID: userID, in: store).filter { $0.verified && $0.type == "totp" }
    }

    /// The sort key of the step whose handle holds `secret`.
    static func entry(_ secret: String) -> String { "signin:\(SHA256Hex.of(secret.utf8))" }
}
