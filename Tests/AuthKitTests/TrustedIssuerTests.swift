import AuthKit
import Foundation
import GatehouseJSON
import JOSE
import Testing

/// The authorizer with a Cognito user pool trusted beside Gatehouse's own keys: tokens shaped
/// as Cognito's, signed by a key of the test's, and every refusal `aws-jwt-verify` makes.
struct TrustedIssuerTests {
    static let pool = "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Test123"
    static let cognito = try! RSASigningKey.generate()
    static let stranger = try! RSASigningKey.generate()
    static let own = try! SigningKeySet.generate()
    static let now: Double = 1_800_000_000

    static func authorizer(tokenUse: TrustedIssuer.TokenUse? = nil) async throws -> AccessTokenAuthorizer {
        let trusted = TrustedIssuer(issuer: pool, clients: ["app-client-1"], tokenUse: tokenUse)
        let poolKeys = JWKSCache(url: trusted.jwksURL, fetcher: ServedJWKS([cognito.publicJWK]))
        let ownKeys = JWKSCache(
            url: "http://127.0.0.1:3000/.well-known/jwks.json", fetcher: ServedJWKS(jwks: own.publicJWKS))
        try await poolKeys.hydrate()
        try await ownKeys.hydrate()
        return AccessTokenAuthorizer(
            verifier: JWTVerifier(issuer: "http://127.0.0.1:3000", audiences: ["demo"]), keys: ownKeys,
            requiredScopes: [], issuers: [TrustedIssuerKeys(issuer: trusted, keys: poolKeys)], now: { now })
    }

    /// A Cognito access token (or, with `use: "id"`, an id token), with `changes`.
    static func token(
        use: String = "access", _ changes: [String: JSONValue] = [:], key: RSASigningKey = cognito
    ) throws -> String {
        var claims: [String: JSONValue] = [
            "sub": "7c1e8b2a-0000-4000-8000-000000000001", "iss": .string(pool), "token_use": .string(use),
            "scope": "openid profile", "auth_time": .number(now - 60), "iat": .number(now - 60),
            "exp": .number(now + 3540), "jti": "j-1", "username": "ada",
        ]
        if use == "access" { claims["client_id"] = "app-client-1" } else { claims["aud"] = "app-client-1" }
        if use == "id" { claims["cognito:username"] = "ada"; claims["email"] = "ada@example.com" }
        claims.merge(changes) { $1 }
        return try JWS.signJWT(claims: claims, with: key)
    }

    static func reason(_ decision: AccessDecision) -> String { decision.reason }

    @Test func aCognitoAccessTokenIsAllowedWithItsClaimsAndOursStillAre() async throws {
        let authorizer = try await Self.authorizer()
        guard
            case .allow(let principal, let context, _) = await authorizer.decide(
                authorization: "Bearer \(try Self.token())")
        else {
            Issue.record("a valid Cognito access token should be allowed")
            return
        }
        // REST's principalId is namespaced by the issuer, so it can never read as a user id.
        #expect(principal == "\(Self.pool)#7c1e8b2a-0000-4000-8000-000000000001")
        // Its subject, with its issuer, and never where a Gatehouse user's id goes.
        #expect(context["subject"] == "7c1e8b2a-0000-4000-8000-000000000001")
        #expect(context["sub"] == nil && context["userId"] == nil)
        #expect(context["client_id"] == "app-client-1" && context["token_use"] == "access")
        #expect(
            context["scope"] == "openid profile" && context["username"] == "ada" && context["iss"] == .string(Self.pool)
        )
        #expect(context["expiresAt"] == .string(String(Int(Self.now + 3540))))

        let ours = try JWS.signJWT(
            claims: [
                "iss": "http://127.0.0.1:3000", "aud": "demo", "sub": "user-42", "exp": .number(Self.now + 300),
            ], with: Self.own.current)
        let decided = await authorizer.decide(authorization: "Bearer \(ours)")
        #expect(decided.reason == "ok")
        // The app the token was issued to reaches the route, which may serve only one app.
        guard case .allow(_, let ownContext, _) = decided else {
            Issue.record("our own token should be allowed")
            return
        }
        #expect(ownContext["aud"] == "demo" && ownContext["sub"] == "user-42")
    }

    @Test func everyRefusalOfAStrictVerifier() async throws {
        let authorizer = try await Self.authorizer()
        func decided(_ token: String) async -> String {
            await authorizer.decide(authorization: "Bearer \(token)").reason
        }
        #expect(await decided(try Self.token(use: "id")) == "wrong_token_use")
        #expect(await decided(try Self.token(["client_id": "other-client"])) == "wrong_client")
        #expect(await decided(try Self.token(["client_id": .null])) == "wrong_client")
        #expect(await decided(try Self.token(["exp": .number(Self.now - 61)])) == "expired")
        #expect(await decided(try Self.token(["nbf": .number(Self.now + 120)])) == "not_yet_valid")
        #expect(await decided(try Self.token(key: Self.stranger)) == "unknown_kid")
        // Another pool's token is not this pool's: it goes to our own keys, which do not know it.
        let otherPool = "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Other"
        #expect(await decided(try Self.token(["iss": .string(otherPool)])) == "unknown_kid")
        // Signed under the pool's kid by another key.
        let header = Base64URL.encode(Array(#"{"alg":"RS256","kid":"\#(Self.cognito.kid)"}"#.utf8))
        let payload = try Self.token().split(separator: ".")[1]
        let forged = "\(header).\(payload)"
        let signature = Base64URL.encode(try Self.stranger.signRS256(Array(forged.utf8)))
        #expect(await decided("\(forged).\(signature)") == "bad_signature")
        // alg none, with the pool's claims.
        let none = Base64URL.encode(Array(#"{"alg":"none","kid":"\#(Self.cognito.kid)"}"#.utf8))
        #expect(await decided("\(none).\(payload).") == "algorithm_not_allowed")
    }

    @Test func anIdTokenPoolChecksTheAudience() async throws {
        let authorizer = try await Self.authorizer(tokenUse: .id)
        #expect(await authorizer.decide(authorization: "Bearer \(try Self.token(use: "id"))").reason == "ok")
        // An access token has no `aud`: refused for that before its token_use is read.
        #expect(
            await authorizer.decide(authorization: "Bearer \(try Self.token(use: "access"))").reason
                == "missing_claim")
        let relabelled = try Self.token(use: "access", ["aud": "app-client-1"])
        #expect(await authorizer.decide(authorization: "Bearer \(relabelled)").reason == "wrong_token_use")
        let otherAudience = try Self.token(use: "id", ["aud": "other-client"])
        #expect(await authorizer.decide(authorization: "Bearer \(otherAudience)").reason == "wrong_audience")
    }

    @Test func theSettingListsIssuersAndRefusesWhatCannotBeTrusted() throws {
        let issuers = try TrustedIssuer.list(
            #"[{"issuer":"\#(Self.pool)","clientIds":["a","b"]},{"issuer":"https://id.example.com","audiences":["api"],"jwksUrl":"https://id.example.com/keys"}]"#,
            requireHTTPS: true)
        #expect(issuers.count == 2)
        #expect(issuers[0].cognitoTokenUse == .access && issuers[0].jwksURL == Self.pool + "/.well-known/jwks.json")
        #expect(issuers[1].cognitoTokenUse == nil && issuers[1].jwksURL == "https://id.example.com/keys")
        for bad in [
            "{}", "[{}]", #"[{"issuer":"https://x.example"}]"#, #"[{"issuer":"https://x.example","clientIds":[]}]"#,
            #"[{"issuer":"https://x.example","clientIds":[1]}]"#,
            #"[{"issuer":"\#(Self.pool)","clientIds":["a"],"tokenUse":"refresh"}]"#,
            #"[{"issuer":"http://x.example","clientIds":["a"]}]"#,
        ] {
            #expect(throws: SettingsError.self, "\(bad)") { try TrustedIssuer.list(bad, requireHTTPS: true) }
        }
        #expect(TrustedIssuer.isCognito(Self.pool))
        #expect(!TrustedIssuer.isCognito("https://cognito-idp.eu-west-1.amazonaws.com.evil.com/pool"))
        #expect(!TrustedIssuer.isCognito("https://cognito-idp.eu-west-1.amazonaws.com/pool/extra"))
    }
}
