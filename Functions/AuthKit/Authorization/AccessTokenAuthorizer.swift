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
    /// When set, a token must name (`sid`) a session that still exists.
    public let sessions: SessionCheck?
    /// Other issuers accepted (`TrustedIssuer`), by `iss`, each with its keys.
    public let issuers: [String: TrustedIssuerKeys]
    /// When set, a token's `aud` must name a registered app (the verifier then leaves `aud`
    /// to this check).
    public let registeredApps: RegisteredAudiences?
    private let now: @Sendable () -> Double

    /// `now` gives seconds since 1970 (injected by tests).
    public init(
        verifier: JWTVerifier,
        keys: JWKSCache,
        requiredScopes: Set<String> = [],
        sessions: SessionCheck? = nil,
        issuers: [TrustedIssuerKeys] = [],
        registeredApps: RegisteredAudiences? = nil,
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.verifier = verifier
        self.keys = keys
        self.issuers = Dictionary(issuers.map { ($0.issuer.issuer, $0) }) { first, _ in first }
        self.requiredScopes = requiredScopes
        self.sessions = sessions
        self.registeredApps = registeredApps
        self.now = now
    }

    /// The decision for an `Authorization` header value (`Bearer <jwt>`, scheme in any case).
    public func decide(authorization: String?) async -> AccessDecision {
        guard let token = BearerToken.parse(authorization) else {
            return .unauthorized(reason: "missing_token", kid: nil)
        }
        let jws: CompactJWS
        do {
            jws = try verifier.parse(token)
        } catch {
            return .unauthorized(reason: error.reasonCode, kid: nil)
        }
        // A kid our keys know is ours: no further look. Otherwise, with other issuers trusted,
        // the token's own `iss` says whose keys to try.
        if !issuers.isEmpty, !(jws.kid.map(keys.knowsNow(kid:)) ?? false), let other = issuer(of: jws) {
            return await decide(jws, from: other)
        }
        let candidates: VerificationKeySet
        do {
            candidates = try await keys.keys(for: jws.kid)
        } catch {
            // Keys too old to trust, or none loaded yet: refused, whatever the token.
            return .unauthorized(reason: error.reasonCode, kid: jws.kid)
        }
        let verified: VerifiedJWT
        do {
            verified = try verifier.verify(jws, keys: candidates, now: now())
        } catch {
            return .unauthorized(reason: error.reasonCode, kid: jws.kid)
        }
        guard let subject = verified.subject, !subject.isEmpty else {
            return .unauthorized(reason: "missing_subject", kid: verified.kid)
        }
        if let refusal = await audienceRefusal(verified) {
            return .unauthorized(reason: refusal, kid: verified.kid)
        }
        if let refusal = await sessionRefusal(verified, subject: subject) {
            return .unauthorized(reason: refusal, kid: verified.kid)
        }
        let scopes = Self.scopes(verified.claims["scope"])
        guard requiredScopes.isSubset(of: scopes) else { return .deny(principal: subject, kid: verified.kid) }
        return .allow(principal: subject, context: Self.context(verified, subject: subject), kid: verified.kid)
    }

    /// The trusted issuer the unverified payload names, if it names one of them.
    private func issuer(of jws: CompactJWS) -> TrustedIssuerKeys? {
        guard let claims = try? LazyJSONObject(parsing: jws.payload), case .string(let iss)? = claims["iss"] else {
            return nil
        }
        return issuers[iss]
    }

    /// The decision for a token of another issuer: its keys, its verifier, its rules; scopes
    /// as for ours; no session to check.
    private func decide(_ jws: CompactJWS, from other: TrustedIssuerKeys) async -> AccessDecision {
        let verified: VerifiedJWT
        do {
            verified = try other.verifier.verify(jws, keys: try await other.keys.keys(for: jws.kid), now: now())
        } catch let error as JWTError {
            return .unauthorized(reason: error.reasonCode, kid: jws.kid)
        } catch {
            return .unauthorized(reason: (error as? JWKSCacheError)?.reasonCode ?? "unverifiable", kid: jws.kid)
        }
        if let refusal = other.issuer.refusal(verified) { return .unauthorized(reason: refusal, kid: verified.kid) }
        guard let subject = verified.subject, !subject.isEmpty else {
            return .unauthorized(reason: "missing_subject", kid: verified.kid)
        }
        // The principal (REST's principalId) carries the issuer: another issuer's subject is
        // never a Gatehouse user id, wherever a function reads it.
        let principal = "\(other.issuer.issuer)#\(subject)"
        guard requiredScopes.isSubset(of: Self.scopes(verified.claims["scope"])) else {
            return .deny(principal: principal, kid: verified.kid)
        }
        return .allow(
            principal: principal, context: other.issuer.context(verified, subject: subject), kid: verified.kid)
    }

    /// Why the token's audience is not let through, when audiences are registered apps: it
    /// names none, or the store could not tell (refused: the check fails closed).
    private func audienceRefusal(_ token: VerifiedJWT) async -> String? {
        guard let registeredApps else { return nil }
        do {
            return try await registeredApps.accepts(token.claims["aud"]) ? nil : JWTError.wrongAudience.reasonCode
        } catch {
            return "audience_check_failed"
        }
    }

    /// Why the token's session does not let it through, when sessions are checked: it names
    /// none, it ended, or the store could not tell (refused: the check fails closed).
    private func sessionRefusal(_ token: VerifiedJWT, subject: String) async -> String? {
        guard let sessions else { return nil }
        guard case .string(let sessionID)? = token.claims["sid"], !sessionID.isEmpty else { return "missing_session" }
        do {
            return try await sessions.isLive(userID: subject, sessionID: sessionID) ? nil : "session_ended"
        } catch {
            return "session_check_failed"
        }
    }

    /// OAuth's `scope` claim: one space-separated string (RFC 8693 §4.2).
    private static func scopes(_ claim: JSONValue?) -> Set<String> {
        guard case .string(let text)? = claim else { return [] }
        return Set(text.split(separator: " ").map(String.init))
    }

    /// `sub` (and `userId`, the same verified subject, whatever the `data` claim says), `iss`
    /// (Gatehouse's own issuer, which Gatehouse's routes require: `signedInUserID(issuer:)`),
    /// `email`, `name`, `provider` from the `data` claim, `scope` and `sid` (the string ones
    /// only), `aud` (the app the token was issued to: with every registered app accepted, a route
    /// that serves one app checks it), and `expiresAt`, the token's `exp` in seconds: API Gateway
    /// keeps a cached answer for its own `ResultTtlInSeconds` whatever the token says, so a route
    /// can check it.
    private static func context(_ token: VerifiedJWT, subject: String) -> [String: JSONValue] {
        var context: [String: JSONValue] = ["sub": .string(subject), "userId": .string(subject)]
        if case .string(let issuer)? = token.claims["iss"] { context["iss"] = .string(issuer) }
        let data = token.claims.object("data")
        for name in ["email", "name", "provider"] {
            if case .string(let value)? = data?[name] { context[name] = .string(value) }
        }
        for name in ["scope", "sid", "aud"] {
            if case .string(let value)? = token.claims[name] { context[name] = .string(value) }
        }
        if case .number(let expiresAt)? = token.claims["exp"], let seconds = Int64(exactly: expiresAt.rounded(.down)) {
            context["expiresAt"] = .string(String(seconds))
        }
        return context
    }
}
