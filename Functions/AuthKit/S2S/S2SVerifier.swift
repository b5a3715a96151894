import GatehouseJSON
import JOSE
import StoreCore

/// Checks the assertions an app's backend signs to call Gatehouse server-to-server.
///
/// An assertion is a JWT in `Authorization: Bearer ...`, signed (RS256 or ES256) with a private
/// key whose public half is registered for the app, with:
/// - `iss` = `sub` = the app id, `aud` = Gatehouse's `ISSUER`;
/// - `iat`, and `exp` at most 60 seconds after it;
/// - a unique `jti`, remembered in `UsedAssertions` until the assertion can no longer be
///   accepted, so a captured assertion cannot be replayed;
/// - `body_sha256`: the hex SHA-256 of the exact request body, which the request's
///   `x-amz-content-sha256` header must carry too, so the assertion covers only that body.
///
/// Checking (`verify`) writes nothing; spending the `jti` (`redeem`) is the caller's last step
/// before acting, so a request refused for its body does not burn the assertion.
public struct S2SVerifier: Sendable {
    public static let table = "UsedAssertions"
    /// The longest an assertion may live, `exp - iat`, in seconds.
    public static let maximumLifetime: Double = 60
    /// How far the app's clock and ours may disagree, in seconds.
    public static let clockSkew: Double = 10
    /// The longest `jti` accepted, in bytes.
    public static let maximumJTIBytes = 128

    private let store: any KeyValueStore
    private let clock: any StoreClock
    private let apps: AppRegistry
    private let audience: String

    /// `audience` is Gatehouse's `ISSUER`: what every assertion's `aud` must name.
    public init(store: any KeyValueStore, clock: any StoreClock, audience: String) {
        self.store = store
        self.clock = clock
        self.apps = AppRegistry(store: store)
        self.audience = audience
    }

    /// Checks the assertion in `authorization` for a request with `body` and the
    /// `x-amz-content-sha256` header `contentSHA256`. Writes nothing.
    public func verify(authorization: String?, contentSHA256: String?, body: [UInt8]) async throws -> S2SAssertion {
        guard let token = BearerToken.parse(authorization) else { throw S2SError.missingAssertion }
        let parser = JWTVerifier(
            issuer: "", audiences: [audience], algorithms: [.rs256, .es256], clockSkew: Self.clockSkew)
        let jws: CompactJWS
        do {
            jws = try parser.parse(token)
        } catch {
            throw S2SError.invalidAssertion(error.description)
        }
        // The issuer is read before the signature is checked only to find the app's keys; the
        // verifier then requires that very issuer, under the signature.
        guard let claimed = try? LazyJSONObject(parsing: jws.payload), case .string(let appID)? = claimed["iss"],
            !appID.isEmpty, appID.utf8.count <= 64
        else { throw S2SError.invalidAssertion("iss must name the app") }
        guard let app = try await apps.app(id: appID) else { throw S2SError.unknownApp }
        guard !app.publicKeys.isEmpty else { throw S2SError.noPublicKey }

        let verified: VerifiedJWT
        do {
            var verifier = parser
            verifier.issuer = app.id
            verified = try verifier.verify(jws, keys: VerificationKeySet(jwks: app.publicKeys), now: clock.now)
        } catch {
            throw S2SError.invalidAssertion(error.description)
        }
        let claims = verified.claims
        guard verified.subject == app.id else { throw S2SError.invalidAssertion("sub must equal iss") }
        guard case .number(let issuedAt)? = claims["iat"] else {
            throw S2SError.invalidAssertion("iat is required")
        }
        guard verified.expiresAt > issuedAt, verified.expiresAt - issuedAt <= Self.maximumLifetime else {
            throw S2SError.invalidAssertion("exp must be after iat and at most \(Int(Self.maximumLifetime)) s later")
        }
        guard case .string(let jti)? = claims["jti"], !jti.isEmpty, jti.utf8.count <= Self.maximumJTIBytes else {
            throw S2SError.invalidAssertion("jti must be a string of 1 to \(Self.maximumJTIBytes) bytes")
        }
        guard case .string(let signedHash)? = claims["body_sha256"], SHA256Hex.isWellFormed(signedHash) else {
            throw S2SError.invalidAssertion("body_sha256 must be the body's SHA-256 in lower-case hex")
        }

        let bodyHash = SHA256Hex.of(body)
        guard signedHash == bodyHash else {
            throw S2SError.bodyHashMismatch("The body is not the one the assertion was signed for (body_sha256).")
        }
        guard let contentSHA256 else {
            throw S2SError.bodyHashMismatch("The x-amz-content-sha256 header is missing.")
        }
        guard contentSHA256.lowercased() == bodyHash else {
            throw S2SError.bodyHashMismatch("The x-amz-content-sha256 header is not the SHA-256 of the body.")
        }
        return S2SAssertion(app: app.id, jti: jti, expiresAt: verified.expiresAt, redeem: app.redeem)
    }

    /// Spends the assertion's `jti`: a second use, from any process, is `S2SError.replayed`. The
    /// id is kept until the assertion expires (plus the clock skew), when no check could pass.
    public func redeem(_ assertion: S2SAssertion) async throws {
        let item: Item = [
            "jti": .string("\(assertion.app)/\(assertion.jti)"),
            "ttl": .number((assertion.expiresAt + Self.clockSkew).rounded(.up)),
        ]
        do {
            try await store.put(Self.table, item: item, condition: .itemNotExists)
        } catch StoreError.conditionFailed {
            throw S2SError.replayed
        }
    }
}
