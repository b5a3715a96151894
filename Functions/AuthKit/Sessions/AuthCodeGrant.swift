import GatehouseJSON

/// What an auth code stands for: a signed-in user, for one app.
public struct AuthCodeGrant: Sendable, Equatable {
    public let app: String
    public let userID: String
    public let email: String?
    public let name: String?
    public let provider: String
    public let isNewUser: Bool
    /// Milliseconds since 1970.
    public let expiresAt: Double
    /// The S256 PKCE challenge of the client that started the sign-in, when it sent one: the
    /// code is then exchanged only with the matching verifier.
    public let codeChallenge: String?
    /// The user's phone number when it has one (E.164): the access token's `phone` claim.
    public let phone: String?
    /// The user's `app_metadata` and `user_metadata` when the code was made: the access
    /// token's claims.
    public let appMetadata: [String: JSONValue]
    public let userMetadata: [String: JSONValue]
    /// A provider identity to link to the user at the exchange (`IdentityLinkFlow`), if the
    /// code ends a link rather than a sign-in.
    public let linking: SignInIdentity?
    /// A second factor proved before the code was made (the hosted page's code step): the
    /// session the code starts is at `aal2` from its first token.
    public let secondFactor: SecondFactorProof?

    public init(
        app: String, userID: String, email: String?, name: String?, provider: String, isNewUser: Bool,
        expiresAt: Double, codeChallenge: String? = nil, phone: String? = nil,
        appMetadata: [String: JSONValue] = [:], userMetadata: [String: JSONValue] = [:], linking: SignInIdentity? = nil,
        secondFactor: SecondFactorProof? = nil
    ) {
        self.linking = linking
        self.secondFactor = secondFactor
        self.appMetadata = appMetadata
        self.userMetadata = userMetadata
        self.app = app
        self.userID = userID
        self.email = email
        self.name = name
        self.provider = provider
        self.isNewUser = isNewUser
        self.expiresAt = expiresAt
        self.codeChallenge = codeChallenge
        self.phone = phone
    }

    /// Whether `codeVerifier` lets this code be redeemed: always for a code bound to no
    /// challenge; for a bound one, only the verifier its challenge was made from (constant-time).
    /// The one rule of every route that redeems codes (`/auth/exchange`, the backend's
    /// `/api/v1/auth/verify`): a code it refuses is spent, so an app that intercepted it on its
    /// way back cannot use it, and the rightful app's later try fails loudly.
    /// A code that ends a link (`linking`) is redeemable only where the link is made (Supabase's
    /// `grant_type=pkce`, `FlowCodes.redeem`): nowhere else would it link, and a session from it
    /// would say the user signed in with a provider they never did.
    public func isRedeemable(with codeVerifier: String?) -> Bool {
        guard linking == nil else { return false }
        return codeChallenge.map { PKCE.verifies(codeVerifier ?? "", challenge: $0) } ?? true
    }
}
