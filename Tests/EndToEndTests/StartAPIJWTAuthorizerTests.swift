import Foundation
import GatehouseJSON
import JOSE
import Testing

/// start-api serving an HTTP API JWT authorizer (`Tests/Fixtures/jwt-template.json`) whose issuer
/// is start-api's own dev OIDC provider: tokens signed here with the provider's key, checked by
/// the emulator as API Gateway checks them, and their claims in the function's event.
@Suite(.serialized)
struct StartAPIJWTAuthorizerTests {
    let cli = GatehouseCLI()
    static let template = GatehouseCLI.repositoryRoot.appendingPathComponent("Tests/Fixtures/jwt-template.json").path

    @Test func tokensAreCheckedAsAPIGatewayChecksThemAndTheirClaimsReachTheFunction() async throws {
        try await LocalAPI.with(template: Self.template, cli: cli) { api in
            let issuer = "http://127.0.0.1:\(api.port)/_dev/oidc"
            let keyFile = URL(fileURLWithPath: cli.storeFile).deletingLastPathComponent()
                .appendingPathComponent("dev-provider-keys.json")
            let key = try SigningKeySet(jwksJSON: Data(contentsOf: keyFile)).current
            let stranger = try RSASigningKey.generate()
            func token(_ changes: [String: JSONValue] = [:], with signer: RSASigningKey? = nil) throws -> String {
                let now = Date().timeIntervalSince1970.rounded(.down)
                var claims: [String: JSONValue] = [
                    "iss": .string(issuer), "sub": "user-7", "aud": "gatehouse-local", "scope": "orders/read profile",
                    "iat": .number(now), "exp": .number(now + 300), "groups": ["a", "b"],
                ]
                claims.merge(changes) { $1 }
                return try JWS.signJWT(claims: claims, with: signer ?? key)
            }
            func get(_ path: String, _ token: String?) async throws -> (Int, String?, JSONValue?) {
                let answer = try await api.request(
                    "GET", path, headers: token.map { [("Authorization", "Bearer \($0)")] } ?? [])
                return (
                    answer.status, answer.headers.first { $0.0 == "www-authenticate" }?.1,
                    try? JSONValue(parsing: answer.body)
                )
            }

            // Allowed: the claims as strings, and the scopes on a route that names some.
            let (status, _, echoed) = try await get("/jwt/orders", try token())
            #expect(status == 200, "\(api.log.suffix(1500))")
            let jwt = try #require(echoed?["requestContext"]?["authorizer"]?["jwt"])
            #expect(jwt["claims"]?["sub"] == "user-7" && jwt["claims"]?["iss"] == .string(issuer))
            #expect(jwt["claims"]?["groups"] == "[a b]" && jwt["claims"]?["exp"]?.stringValue?.count == 10)
            #expect(jwt["scopes"] == ["orders/read", "profile"])
            let (open, _, openEcho) = try await get(
                "/jwt/open", try token(["aud": .null, "client_id": "gatehouse-local"]))
            #expect(open == 200 && openEcho?["requestContext"]?["authorizer"]?["jwt"]?["scopes"] == .null)
            #expect(try await get("/jwt/public", nil).0 == 200)

            // Refused, each as API Gateway answers.
            let (none, noneChallenge, _) = try await get("/jwt/open", nil)
            #expect(none == 401 && noneChallenge == #"Bearer scope="""#)
            let (expired, expiredChallenge, body) = try await get(
                "/jwt/open", try token(["exp": .number(Date().timeIntervalSince1970 - 10)]))
            #expect(expired == 401 && body == ["message": "Unauthorized"])
            #expect(
                expiredChallenge == #"Bearer scope="" error="invalid_token" error_description="the token has expired""#)
            for refused in [
                try token(["aud": "someone-else"]), try token(["iss": "https://elsewhere.example"]),
                try token(["nbf": .number(Date().timeIntervalSince1970 + 600)]), try token(with: stranger),
                "not.a.jwt",
            ] {
                #expect(try await get("/jwt/open", refused).0 == 401)
            }
            let unsigned = try token().split(separator: ".").prefix(2).joined(separator: ".")
            let noneHeader = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8))
            #expect(try await get("/jwt/open", "\(noneHeader).\(unsigned.split(separator: ".")[1]).").0 == 401)
            let (scoped, scopedChallenge, _) = try await get("/jwt/orders", try token(["scope": "profile"]))
            #expect(
                scoped == 403,
                "\(api.log.split(separator: "\n").filter { $0.contains("/jwt/") }.joined(separator: "\n"))")
            #expect(
                scopedChallenge
                    == #"Bearer scope="orders/read orders/admin" error="insufficient_scope" error_description="expected scopes: [orders/read orders/admin]""#
            )
            #expect(api.log.contains("GET /jwt/orders 403") && api.log.contains("DevJwt jwt missing scope"))
        }
    }
}
