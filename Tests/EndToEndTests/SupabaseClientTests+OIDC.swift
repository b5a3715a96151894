import Crypto
import Emulator
import Foundation
import GatehouseJSON
import TestServers
import Testing

/// The configured OIDC provider through Supabase's routes, start-api and the real binaries,
/// driven by Supabase's own Python client in the PKCE flow
/// (`Tests/Support/Supabase/supabase_oidc.py`), against `TestOIDCProvider`.
extension SupabaseClientTests {
    static func hashedNonce(_ nonce: String) -> JSONValue {
        .string(SHA256.hash(data: Array(nonce.utf8)).map { String(format: "%02x", $0) }.joined())
    }

    /// `signInWithIdToken` with the provider's token, then `signInWithOAuth` through
    /// `/auth/v1/authorize`, the provider and the callback, back to `redirect_to` with a code:
    /// both find the same user.
    @Test func supabasesClientSignsInWithTheOIDCProvidersIDTokenAndThroughAuthorize() async throws {
        let provider = try await TestOIDCProvider.start()
        defer { Task { await provider.stop() } }
        let grace: [String: JSONValue] = [
            "sub": "google-123", "email": "grace@example.com", "email_verified": true, "name": "Grace Hopper",
            "nonce": Self.hashedNonce("n-0nce"),
        ]
        var other = grace
        other["aud"] = "another-client"
        var unverified = grace
        unverified["sub"] = "google-777"
        unverified["email_verified"] = false
        var wrongNonce = grace
        wrongNonce["nonce"] = Self.hashedNonce("n-1")
        let tokens: JSONValue = .object([
            "grace": .string(try provider.idToken(grace)),
            "graceAgain": .string(try provider.idToken(grace.merging(["jti": "again"]) { $1 })),
            "wrongNonce": .string(try provider.idToken(wrongNonce)),
            "otherClient": .string(try provider.idToken(other)),
            "unverified": .string(try provider.idToken(unverified)),
        ])
        var person = grace
        person.removeValue(forKey: "nonce")
        provider.signInAs(person)
        let variables = [
            "SupabaseToken": provider.environment, "Authorize": provider.environment,
            "OAuthCallback": provider.environment,
        ]
        try await LocalAPI.with(cli: cli, variables: variables) { api in
            let run = try await ChildProcess.capture(
                "/usr/bin/env",
                [
                    PythonTools.python,
                    GatehouseCLI.repositoryRoot.appendingPathComponent("Tests/Support/Supabase/supabase_oidc.py").path,
                    "http://127.0.0.1:\(api.port)", try await apiKey(), tokens.serialized,
                ])
            guard case .exited(0) = run.termination.reason else {
                Issue.record("the client run failed: \(run.standardError)")
                return
            }
            let seen = try JSONValue(parsing: Array(run.standardOutput.utf8))
            // The latencies through start-api (a debug build), for the docs: first (cold) and warm.
            let timings = ["idTokenMs", "idTokenWarmMs", "authorizeMs", "authorizeWarmMs"].map {
                "\($0) \(seen[$0]?.numberValue ?? -1)"
            }
            print("OIDC through start-api: \(timings.joined(separator: ", "))")
            #expect(
                seen["google"] == [
                    "hasSession": true, "email": "grace@example.com", "identities": ["google"], "user": true,
                ])
            #expect(seen["replayed"] == ["code": "bad_jwt", "status": 400])
            #expect(seen["wrongNonce"] == ["code": "bad_jwt", "status": 400])
            #expect(seen["noNonce"] == ["code": "bad_jwt", "status": 400])
            #expect(seen["otherClient"] == ["code": "bad_jwt", "status": 400])
            #expect(seen["unknownProvider"] == ["code": "validation_failed", "status": 400])
            #expect(seen["unverified"]?["sameUser"] == false)
            #expect(
                seen["oauth"] == [
                    "statuses": [302, 302, 302], "to": .string("http://127.0.0.1:\(api.port)/welcome"), "hasCode": true,
                    "tokenInURL": false, "sameUser": true, "identities": ["google"], "user": true,
                    "amr": ["oauth"],
                ])
            #expect(seen["oauthCodeAgain"] == ["code": "flow_state_not_found", "status": 404])
            #expect(seen["foreignCallback"] == 400, "only the browser that began the flow ends it")
            #expect(
                seen["foreignRedirect"] == 400 && seen["mobileImplicit"] == 400 && seen["oauthUnknownProvider"] == 400)
            #expect(
                seen["implicit"] == [
                    "statuses": [302, 302, 302, 303], "to": .string("http://127.0.0.1:\(api.port)/welcome"),
                    "returnPath": "/auth/v1/implicit",
                    "codeOnlyToTheAPI": true, "hasRefreshToken": true, "type": nil, "user": true,
                ])
            #expect(seen["implicitReplay"]?["status"] == 303)
            #expect(seen["implicitBadReturn"] == [400, 400, 400, 400])
            #expect(seen["implicitReplay"]?["fragment"]?.stringValue?.hasPrefix("error=access_denied") == true)
            #expect(!api.log.contains("eyJ") && !api.log.contains("code="), "no token or code in a log line")
        }
    }
}
