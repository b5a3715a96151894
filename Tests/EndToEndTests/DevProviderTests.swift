import Foundation
import GatehouseJSON
import Testing

/// start-api's dev OIDC provider (`/_dev/oidc/`) and `gatehouse dev apple-token`, with the
/// template as it is: the routes a browser and a script use, and what they refuse.
@Suite(.serialized)
struct DevProviderTests {
    let cli = GatehouseCLI()

    @Test func theProviderSignsInByLoginHintAndRefusesWhatCognitoRefuses() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let base = "http://127.0.0.1:\(api.port)"
            let discovery = try JSONValue(
                parsing: try await api.request("GET", "/_dev/oidc/.well-known/openid-configuration").body)
            #expect(discovery["issuer"] == .string(base + "/_dev/oidc"))
            #expect(discovery["code_challenge_methods_supported"] == ["S256"])
            let jwks = try JSONValue(parsing: try await api.request("GET", "/_dev/oidc/.well-known/jwks.json").body)
            let gatehouseKeys = try JSONValue(parsing: try await api.request("GET", "/.well-known/jwks.json").body)
            let key = try #require(jwks["keys"]?.arrayValue?.first)
            let kid = try #require(key["kid"]?.stringValue)
            #expect(gatehouseKeys["keys"]?.arrayValue?.contains { $0["kid"]?.stringValue == kid } == false)  // its own
            #expect(key["d"] == nil)

            // A script's sign-in: login_hint skips the page; the browser's cookies finish it.
            let begun = try await begin(api)
            let hinted = try await api.request("GET", "\(begun.authorize)&login_hint=script%40example.com")
            let back = try #require(hinted.headers.first { $0.0 == "location" }?.1)
            #expect(back.hasPrefix(base + "/auth/callback?code="))
            let finished = try await api.request(
                "GET", String(back.dropFirst(base.count)), headers: [("Cookie", begun.cookies)])
            let appCallback = try #require(finished.headers.first { $0.0 == "location" }?.1)
            #expect(appCallback.hasPrefix(base + "/app/auth/callback?code="))
            // The same provider code again (a new flow's state and cookies): spent.
            let again = try await begin(api)
            let code = try #require(URLComponents(string: back)?.queryItems?.first { $0.name == "code" }?.value)
            let reused = try await api.request(
                "GET", "/auth/callback?code=\(code)&state=\(again.state)", headers: [("Cookie", again.cookies)])
            #expect(reused.headers.first { $0.0 == "location" }?.1 == base + "/app/auth/callback?error=oauth_failed")

            // A verifier that is not the flow's: the provider's PKCE check refuses the code.
            let third = try await begin(api)
            let issued = try await api.request("GET", "\(third.authorize)&login_hint=pkce%40example.com")
            let thirdBack = try #require(issued.headers.first { $0.0 == "location" }?.1)
            let tampered = third.cookies.replacingOccurrences(
                of: #"gh_oauth_verifier=[^;]*"#, with: "gh_oauth_verifier=\(String(repeating: "A", count: 43))",
                options: .regularExpression)
            let refused = try await api.request(
                "GET", String(thirdBack.dropFirst(base.count)), headers: [("Cookie", tampered)])
            #expect(refused.headers.first { $0.0 == "location" }?.1 == base + "/app/auth/callback?error=oauth_failed")

            // Another client, an unregistered redirect URI: a page, never a redirect.
            for (name, value) in [("client_id", "someone-else"), ("redirect_uri", "https://evil.example/cb")] {
                let query = begun.authorize.replacingOccurrences(
                    of: #"\#(name)=[^&]*"#, with: "\(name)=\(value)", options: .regularExpression)
                let page = try await api.request("GET", query)
                #expect(page.status == 400, "\(name)")
                #expect(!page.headers.contains { $0.0 == "location" })
            }
            // No PKCE challenge: back to the client with invalid_request.
            let plain = begun.authorize.replacingOccurrences(
                of: #"code_challenge=[^&]*"#, with: "code_challenge=", options: .regularExpression)
            let noChallenge = try await api.request("GET", plain)
            #expect(noChallenge.headers.first { $0.0 == "location" }?.1.contains("error=invalid_request") == true)
            // The token endpoint without the client's secret.
            let token = try await api.request(
                "POST", "/_dev/oidc/oauth2/token", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: Array("grant_type=authorization_code&code=x&client_id=gatehouse-local&client_secret=guess".utf8))
            #expect(token.status == 401)
            #expect(try JSONValue(parsing: token.body)["error"] == "invalid_client")
        }
    }

    @Test func anAppleTokenFromTheCLIVerifiesLocallyAndItsNonceIsChecked() async throws {
        try await LocalAPI.with(cli: cli) { api in
            func appleToken(_ extra: [String]) async throws -> String {
                let run = try await cli.run(
                    ["dev", "apple-token", "--sub", "001.dev", "--email", "ada@example.com"] + extra)
                #expect(run.status == 0, "\(run.stderr)")
                return run.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            func verify(_ token: String, nonce: String) async throws -> (Int, JSONValue) {
                let body =
                    #"{"identityToken":"\#(token)","authorizationCode":"c","user":"001.dev","nonce":"\#(nonce)","app":"demo"}"#
                let answer = try await api.request(
                    "POST", "/auth/verify-apple", headers: [("Content-Type", "application/json")],
                    body: Array(body.utf8))
                return (answer.status, try JSONValue(parsing: answer.body))
            }
            let token = try await appleToken(["--nonce", "n-0nce"])
            let (status, answer) = try await verify(token, nonce: "n-0nce")
            #expect(status == 200, "\(answer)")
            #expect(answer["user"]?["provider"] == "apple")
            #expect(answer["user"]?["email"] == "ada@example.com")
            #expect(try await verify(token, nonce: "another").0 == 401)
            #expect(
                try await verify(try await appleToken(["--nonce", "n", "--aud", "com.other"]), nonce: "n").0 == 401)
            #expect(try await verify(try await appleToken(["--nonce", "n", "--expires-in=-120"]), nonce: "n").0 == 401)
            #expect(try await cli.run(["dev", "apple-token", "--sub", "x", "--expires-in", "nan"]).status != 0)
        }
    }

    /// A flow begun at `/auth`: the dev provider's authorize URL (path and query), the cookies.
    private func begin(_ api: LocalAPI) async throws -> (authorize: String, cookies: String, state: String) {
        let answer = try await api.request("GET", "/auth?app=demo&provider=google")
        let location = try #require(answer.headers.first { $0.0 == "location" }?.1)
        let components = try #require(URLComponents(string: location))
        let cookies = answer.headers.filter { $0.0 == "set-cookie" }.map { String($0.1.split(separator: ";")[0]) }
        return (
            components.path + "?" + (components.percentEncodedQuery ?? ""), cookies.joined(separator: "; "),
            components.queryItems?.first { $0.name == "state" }?.value ?? ""
        )
    }
}
