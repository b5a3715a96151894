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
    /// When `aal2`, a token passes only from a session that verified a second factor: its `aal`
    /// claim, and with `sessions` checked its session's row too (`JWT_REQUIRED_AAL`).
    public let requiredAAL: String?
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
        requiredAAL: String? = nil,
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.verifier = verifier
        self.keys = keys
        self.issuers = Dictionary(issuers.map { ($0.issuer.issuer, $0) }) { first, _ in first }
        self.requiredScopes = requiredScopes
        self.sessions = sessions
        self.registeredApps = registeredApps
        self.requiredAAL = requiredAAL
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
        let sessionAAL: String?
        switch await sessionState(verified, subject: subject) {
        case .refused(let reason): return .unauthorized(reason: reason, kid: verified.kid)
        case .live(let aal): sessionAAL = aal
        }
        let scopes = Self.scopes(verified.claims["scope"])
        guard requiredScopes.isSubset(of: scopes) else { return .deny(principal: subject, kid: verified.kid) }
        guard meetsRequiredAAL(verified, sessionAAL: sessionAAL) else {
            return .deny(principal: subject, kid: verified.kid, reason: "aal2_required")
        }
        var context = Self.context(verified, subject: subject)
        // The level the request holds: the token's, lowered by its session's row when read.
        if let sessionAAL {
            context["aal"] = .string(SessionState.assurance(row: sessionAAL, token: context["aal"]?.stringValue))
        }
        return .allow(principal: subject, context: context, kid: verified.kid)
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
        // No other issuer's level is taken on trust: its `aal` claim is no standard one (a hook or
        // a claim mapper may set it), and there is no session of ours to read.
        guard requiredAAL == nil else {
            return .deny(principal: principal, kid: verified.kid, reason: "aal2_required")
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

    /// What the token's session says, when sessions are checked.
    private enum SessionLookup {
        /// It names none, it ended, or the store could not tell (the check fails closed).
        case refused(String)
        /// It is live, at this level (nil: sessions are not checked).
        case live(aal: String?)
    }

    /// The token's session's state: live (with its row's level), or why it does not let the
    /// token through.
    private func sessionState(_ token: VerifiedJWT, subject: String) async -> SessionLookup {
        guard let sessions else { return .live(aal: nil) }
        guard case .string(let sessionID)? = token.claims["sid"], !sessionID.isEmpty else {
            return .refused("missing_session")
        }
        do {
            let claimed = token.claims["aal"]?.stringValue
            guard let aal = try await sessions.assurance(userID: subject, sessionID: sessionID, claimed: claimed) else {
                return .refused("session_ended")
            }
            return .live(aal: aal)
        } catch {
            return .refused("session_check_failed")
        }
    }

    /// Whether the token reaches `requiredAAL`: `aal2` in its claim and in its session's row (a
    /// removed factor lowers the row before the token expires). `JWT_REQUIRED_AAL` needs the
    /// session check (`AuthorizerSettings`), so the row is always read then.
    private func meetsRequiredAAL(_ token: VerifiedJWT, sessionAAL: String?) -> Bool {
        guard requiredAAL == "aal2" else { return true }
        guard case .string(let claimed)? = token.claims["aal"] else { return false }
        return SessionState.assurance(row: sessionAAL, token: claimed) == "aal2"
    }

    /// OAuth's `scope` claim: one space-separated string (RFC 8693 §4.2).
    private static func scopes(_ claim: JSONValue?) -> Set<String> {
        guard case .string(let text)? = claim else { return [] }
        return Set(text.split(separator: " ").map(String.init))
    }

    /// `sub` (and `userId`, the same verified subject, whatever the `data` claim says), `iss`
    /// (Gatehouse's own issuer, which Gatehouse's routes require: `signedInUserID(issuer:)`),
    /// `email`, `name`, `provider` from the `data` claim, `scope`, `sid` and `aal` (the string ones
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
        for name in ["scope", "sid", "aud", "aal"] {
            if case .string(let value)? = token.claims[name] { context[name] = .string(value) }
        }
        if case .number(let expiresAt)? = token.claims["exp"], let seconds = Int64(exactly: expiresAt.rounded(.down)) {
            context["expiresAt"] = .string(String(seconds))
        }
        return context
    }
}
