import GatehouseJSON
import JOSE

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decides whether a request's `Authorization` header carries a valid Gatehouse access token.
/// Holds no per-request state: one instance serves every request of the process.
public struct AccessTokenAuthorizer: Sendable {
    public let verifier: JWTVerifier
    public let keys: JWKSCache
    public let requiredScopes: Set<String>
    private let now: @Sendable () -> Double

    /// `now` gives seconds since 1970 (injected by tests).
    public init(
        verifier: JWTVerifier,
        keys: JWKSCache,
        requiredScopes: Set<String> = [],
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.verifier = verifier
        self.keys = keys
        self.requiredScopes = requiredScopes
        self.now = now
    }

    /// The decision for an `Authorization` header value (`Bearer <jwt>`, scheme in any case).
    public func decide(authorization: String?) async -> AccessDecision {
        guard let token = Self.bearerToken(authorization) else {
            return .unauthorized(reason: "missing_token", kid: nil)
        }
        let jws: CompactJWS
        do {
            jws = try verifier.parse(token)
        } catch {
            return .unauthorized(reason: error.reasonCode, kid: nil)
        }
        let verified: VerifiedJWT
        do {
            verified = try verifier.verify(jws, keys: await keys.keys(for: jws.kid), now: now())
        } catch {
            return .unauthorized(reason: error.reasonCode, kid: jws.kid)
        }
        guard let subject = verified.subject, !subject.isEmpty else {
            return .unauthorized(reason: "missing_subject", kid: verified.kid)
        }
        let scopes = Self.scopes(verified.claims["scope"])
        guard requiredScopes.isSubset(of: scopes) else { return .deny(principal: subject, kid: verified.kid) }
        return .allow(principal: subject, context: Self.context(verified, subject: subject), kid: verified.kid)
    }

    /// The token of `Bearer <token>`; nil for any other scheme or an empty token.
    static func bearerToken(_ header: String?) -> Substring? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].drop(while: { $0 == " " })
        return token.isEmpty ? nil : token
    }

    /// OAuth's `scope` claim: one space-separated string (RFC 8693 §4.2).
    private static func scopes(_ claim: JSONValue?) -> Set<String> {
        guard case .string(let text)? = claim else { return [] }
        return Set(text.split(separator: " ").map(String.init))
    }

    /// `sub`, and `userId`, `email`, `name`, `provider` from the `data` claim, `scope`: the
    /// string ones only.
    private static func context(_ token: VerifiedJWT, subject: String) -> [String: JSONValue] {
        var context: [String: JSONValue] = ["sub": .string(subject)]
        let data = token.claims.object("data")
        for name in ["userId", "email", "name", "provider"] {
            if case .string(let value)? = data?[name] { context[name] = .string(value) }
        }
        if case .string(let scope)? = token.claims["scope"] { context["scope"] = .string(scope) }
        return context
    }
}
