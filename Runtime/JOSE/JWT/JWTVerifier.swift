import GatehouseJSON

/// Verifies JWTs (RFC 7519) signed with JWS compact serialization against a key set.
///
/// The order of checks: size cap, structure, header rules (`alg` allowed, no `crit`, no
/// embedded or remote keys), key selection by `kid`, signature, then the claims. The payload is
/// parsed only once the signature holds, so unauthenticated claims are never read.
public struct JWTVerifier: Sendable {
    /// The exact `iss` every token must carry.
    public var issuer: String
    /// A token's `aud` (a string or a list) must name at least one of these. With none
    /// configured, every token is refused.
    public var audiences: Set<String>
    /// The algorithms a header may name. `none` and HMAC can never be allowed.
    public var algorithms: Set<JWSAlgorithm>
    /// How far clocks may disagree, in seconds, when checking `exp`, `nbf` and `iat`.
    public var clockSkew: Double
    /// The largest token accepted, in bytes.
    public var maximumTokenBytes: Int
    /// The last header taken apart: one issuer's tokens share theirs. Copies share it.
    private let headerMemo = JWSHeaderMemo()

    /// False for tokens that carry no `aud` by design (Cognito's access tokens name their
    /// client in `client_id`, which the caller checks): `aud` is then not read.
    public var checksAudience: Bool

    public init(
        issuer: String,
        audiences: Set<String>,
        algorithms: Set<JWSAlgorithm> = [.rs256],
        clockSkew: Double = 60,
        maximumTokenBytes: Int = 8192,
        checksAudience: Bool = true
    ) {
        self.issuer = issuer
        self.checksAudience = checksAudience
        self.audiences = audiences
        self.algorithms = algorithms
        self.clockSkew = clockSkew
        self.maximumTokenBytes = maximumTokenBytes
    }

    /// Takes a token apart without trusting it: the caller learns its `kid` (to find keys)
    /// before verifying.
    public func parse(_ token: some StringProtocol) throws(JWTError) -> CompactJWS {
        let jws = try CompactJWS(parsing: token, maximumBytes: maximumTokenBytes, headerMemo: headerMemo)
        _ = try jws.checkedAlgorithm(allowing: algorithms)
        return jws
    }

    /// Verifies `token` at `now` (seconds since 1970).
    public func verify(
        _ token: some StringProtocol, keys: VerificationKeySet, now: Double
    ) throws(JWTError)
        -> VerifiedJWT
    {
        try verify(parse(token), keys: keys, now: now)
    }

    /// Verifies a parsed token at `now` (seconds since 1970).
    public func verify(_ jws: CompactJWS, keys: VerificationKeySet, now: Double) throws(JWTError) -> VerifiedJWT {
        let key = try jws.verifySignature(allowing: algorithms, keys: keys)
        // Checked in full (strict JSON, no repeated names at any level), decoded only where read.
        guard let claims = try? LazyJSONObject(parsing: jws.payload) else { throw JWTError.malformed(.payload) }
        let expiresAt = try checkTimes(claims, now: now)
        switch claims["iss"] {
        case nil: throw JWTError.missingClaim("iss")
        case .string(let value): guard value == issuer else { throw JWTError.wrongIssuer }
        default: throw JWTError.invalidClaim("iss")
        }
        if checksAudience { try checkAudience(claims["aud"]) }
        let subject: String?
        switch claims["sub"] {
        case nil: subject = nil
        case .string(let value): subject = value
        default: throw JWTError.invalidClaim("sub")
        }
        return VerifiedJWT(
            header: jws.header, claims: claims, algorithm: key.algorithm, kid: key.kid, subject: subject,
            expiresAt: expiresAt
        )
    }

    /// `exp` is required; `nbf` and `iat` are checked when present. NumericDates may have a
    /// fraction but must be finite numbers.
    private func checkTimes(_ claims: LazyJSONObject, now: Double) throws(JWTError) -> Double {
        func date(_ name: String) throws(JWTError) -> Double? {
            switch claims[name] {
            case nil: return nil
            case .number(let value) where value.isFinite: return value
            default: throw JWTError.invalidClaim(name)
            }
        }
        guard let expiresAt = try date("exp") else { throw JWTError.missingClaim("exp") }
        let notBefore = try date("nbf")
        let issuedAt = try date("iat")
        // RFC 7519 §4.1.4: the current time must be before `exp`.
        guard now < expiresAt + clockSkew else { throw JWTError.expired }
        if let notBefore, now + clockSkew < notBefore { throw JWTError.notYetValid }
        if let issuedAt, issuedAt > now + clockSkew { throw JWTError.issuedInFuture }
        return expiresAt
    }

    private func checkAudience(_ value: JSONValue?) throws(JWTError) {
        switch value {
        case nil: throw JWTError.missingClaim("aud")
        case .string(let audience):
            guard audiences.contains(audience) else { throw JWTError.wrongAudience }
        case .array(let list):
            var matched = false
            for entry in list {
                guard case .string(let audience) = entry else { throw JWTError.invalidClaim("aud") }
                if audiences.contains(audience) { matched = true }
            }
            guard matched else { throw JWTError.wrongAudience }
        default: throw JWTError.invalidClaim("aud")
        }
    }
}
