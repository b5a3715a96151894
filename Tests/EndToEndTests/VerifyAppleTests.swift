import Emulator
import Foundation
import GatehouseJSON
import JOSE
import TestServers
import Testing

/// The native Sign in with Apple flow through start-api: identity tokens signed by a key of the
/// test's own, whose JWKS an HTTPS server serves as Apple's would.
@Suite(.serialized)
struct VerifyAppleTests {
    let cli = GatehouseCLI()
    static let apple = try! RSASigningKey.generate()

    func token(sub: String = "001234.abcd", aud: String = "com.example.app", expiresIn: Double = 600) throws -> String {
        let now = Date().timeIntervalSince1970
        return try JWS.signJWT(
            claims: [
                "iss": "https://appleid.apple.com", "aud": .string(aud), "sub": .string(sub), "iat": .number(now),
                "exp": .number(now + expiresIn), "email": "ada@privaterelay.appleid.com", "email_verified": "true",
                "is_private_email": "true",
                // hex(SHA-256("n-0nce")): Apple's token carries the hash of the nonce the app made.
                "nonce": "b3b09e9740207145bbb765f8c8b19fabdcb2a659fccd270e855e4d0b8553ddab",
            ], with: Self.apple)
    }

    @Test func anAppleTokenSignsInAndBadOnesAreRefused() async throws {
        let keys = try await HTTPSTestServer.start()
        defer { Task { await keys.stop() } }
        keys.serve(Array(try JSONEncoder().encode(JWKSet(keys: [Self.apple.publicJWK]))))
        try await LocalAPI.with(
            cli: cli,
            variables: [
                "VerifyApple": [
                    "APPLE_JWKS_URL": keys.url("/document"), "SSL_CERT_FILE": HTTPSTestServer.file("ca"),
                    "APPLE_CLIENT_IDS": "com.example.app",
                    // The test's key server shares this busy process: patience for the first fetch.
                    "JWKS_FETCH_TIMEOUT_SECONDS": "8",
                ]
            ]
        ) { api in
            func verify(_ token: String, user: String = "001234.abcd") async throws -> (Int, JSONValue) {
                let body =
                    #"{"identityToken":"\#(token)","authorizationCode":"c0de-secret","user":"\#(user)","nonce":"n-0nce","fullName":{"givenName":"Ada","familyName":"Lovelace"},"app":"demo"}"#
                let answer = try await api.request(
                    "POST", "/auth/verify-apple", headers: [("Content-Type", "application/json")],
                    body: Array(body.utf8))
                return (answer.status, try JSONValue(parsing: answer.body))
            }
            let (status, answer) = try await verify(try token())
            #expect(status == 200, "\(answer)\n\(api.log)")
            #expect(answer["user"]?["isNewUser"] == true)
            #expect(answer["user"]?["name"] == "Ada Lovelace")
            #expect(answer["user"]?["provider"] == "apple")
            let accessToken = try #require(answer["accessToken"]?.stringValue)
            let profile = try await api.request(
                "GET", "/users/me", headers: [("Authorization", "Bearer \(accessToken)")])
            #expect(profile.status == 200)
            let second = try token(expiresIn: 601)
            let (_, again) = try await verify(second)
            #expect(again["user"]?["isNewUser"] == false)
            // One token, one session.
            let (replayed, replayRefusal) = try await verify(second)
            #expect(replayed == 401)
            #expect(replayRefusal["error"] == "invalid_token")

            let (wrongAudience, refusal) = try await verify(try token(aud: "com.other.app"))
            #expect(wrongAudience == 401)
            #expect(refusal["error"] == "invalid_token")
            #expect(try await verify(try token(expiresIn: -120)).0 == 401)
            #expect(try await verify(try token(), user: "someone-else").0 == 401)
            // The authorization code never reaches the log.
            _ = try await eventually(10) { api.log.contains("apple sign-in") }
            #expect(!api.log.contains("c0de-secret"))
        }
    }
}
