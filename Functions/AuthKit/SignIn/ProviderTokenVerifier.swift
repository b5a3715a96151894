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
