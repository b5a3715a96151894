import GatehouseJSON
import JOSE
import StoreCore

/// An identity provider's signed token (Apple's identity token, an OIDC id_token) checked
/// through the JWKS cache: signature (RS256), issuer, audience, times. Refusals are
/// `SignInError.tokenRefused` with the reason's code.
public struct ProviderTokenVerifier: Sendable {
    private let verifier: JWTVerifier
    private let keys: JWKSCache
    private let clock: any StoreClock

    public init(issuer: String, audiences: Set<String>, keys: JWKSCache, clock: any StoreClock) {
        verifier = JWTVerifier(issuer: issuer, audiences: audiences, algorithms: [.rs256])
        self.keys = keys
        self.clock = clock
    }

    /// A boolean claim, which providers send as `true` or as `"true"` (Apple's `email_verified`
    /// and `is_private_email`, some OIDC providers' `email_verified`).
    static func flag(_ value: JSONValue?) -> Bool {
        switch value {
        case .bool(let flag)?: flag
        case .string(let text)?: text == "true"
        default: false
        }
    }

    /// An OIDC provider's ID token checked, then read (`OIDCIdentity`): refused as well when its
    /// `token_use` is not `id` or it has no subject.
    public func identity(_ token: String) async throws(SignInError) -> OIDCIdentity {
        try OIDCIdentity(try await verify(token))
    }

    /// The app's `nonce` against the token's `claim` (hex SHA-256 of the nonce, compared in
    /// constant time), as supabase/auth compares them. No nonce is `missing_nonce` unless
    /// `optional` and the token has none either; a nonce the token does not carry, or another,
    /// is `nonce_mismatch`.
    static func check(nonce: String?, claim: String?, optional: Bool) throws(SignInError) {
        guard let nonce else {
            guard optional, claim == nil else { throw .tokenRefused("missing_nonce") }
            return
        }
        guard let claim, ConstantTime.equal(SHA256Hex.of(Array(nonce.utf8)), claim) else {
            throw .tokenRefused("nonce_mismatch")
        }
    }

    /// The token checked: signature (RS256, by its `kid`), issuer, audience, times.
    public func verify(_ token: String) async throws(SignInError) -> VerifiedJWT {
        do {
            let jws = try verifier.parse(token)
            return try verifier.verify(jws, keys: try await keys.keys(for: jws.kid), now: clock.now)
        } catch let error as JWTError {
            throw .tokenRefused(error.reasonCode)
        } catch let error as JWKSCacheError {
            throw .tokenRefused(error.reasonCode)
        } catch {
            throw .tokenRefused("unverifiable")
        }
    }
}
