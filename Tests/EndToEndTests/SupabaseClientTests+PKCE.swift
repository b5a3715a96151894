import Emulator
import Foundation
import GatehouseJSON
import TestServers
import Testing

/// The PKCE flow (supabase-swift's default) through start-api and the real binaries, driven by
/// Supabase's own Python client with `flow_type="pkce"` (`Tests/Support/Supabase/supabase_pkce.py`).
extension SupabaseClientTests {
    @Test func supabasesClientInPKCEModeSignsUpRecoversAndSignsInByMagicLinkPhoneAndApple() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let base = "http://127.0.0.1:\(api.port)"
            let run = try await ChildProcess.capture(
                "/usr/bin/env",
                [
                    "GATEHOUSE_STORE=\(cli.storeFile)", "SIGNING_KEYS_FILE=\(cli.keysFile)", PythonTools.python,
                    GatehouseCLI.repositoryRoot.appendingPathComponent("Tests/Support/Supabase/supabase_pkce.py").path,
                    base, try await apiKey(), GatehouseCLI.binDirectory.appendingPathComponent("gatehouse").path,
                    "ada@example.com",
                ])
            guard case .exited(0) = run.termination.reason else {
                Issue.record("the client run failed: \(run.standardError)")
                return
            }
            let seen = try JSONValue(parsing: Array(run.standardOutput.utf8))
            #expect(
                seen["signupRedirect"] == [
                    "status": 303, "to": .string(base + "/welcome"), "hasCode": true, "tokenInURL": false,
                ])
            #expect(
                seen["signupSession"] == [
                    "hasSession": true, "email": "ada@example.com", "confirmed": true, "user": "ada@example.com",
                ])
            #expect(seen["claims"] == true, "get_claims verifies the token from /auth/v1/.well-known/jwks.json")
            #expect(
                seen["claimShape"] == [
                    "role": "authenticated", "is_anonymous": false, "aal": "aal1", "email": "ada@example.com",
                    "providers": ["email"], "session_id": true,
                ])
            #expect(seen["usedCode"] == ["code": "flow_state_not_found", "status": 404])
            #expect(seen["codeInStore"] == false, "only the code's hash is stored")
            #expect(seen["samePassword"] == "ada@example.com", "the sign-up's password, kept by its own verifier")
            #expect(
                seen["resend"] == [
                    "status": 200, "body": [:], "confirmed": "resend.me@example.org",
                    "signIn": ["code": "invalid_credentials", "status": 400], "unknown": nil,
                    "mailedUnknown": 0,
                ])
            #expect(
                seen["pressedElsewhere"] == ["code": "invalid_credentials", "status": 400],
                "no exchange with the sign-up's verifier: its password is not the account's")
            #expect(seen["recoveryRedirect"] == .string(base + "/reset"))
            #expect(seen["otherVerifier"] == ["code": "bad_code_verifier", "status": 400])
            #expect(seen["afterOtherVerifier"] == ["code": "flow_state_not_found", "status": 404])
            #expect(seen["recovered"] == true)
            #expect(seen["magicLink"] == "ada@example.com")
            #expect(seen["magicLinkTo"] == .string(base), "no redirect_to: the app's base URL, Supabase's SITE_URL")
            #expect(
                seen["noNewUser"] == [
                    "unknown": nil, "existing": "ada@example.com", "mailed": 0, "created": false,
                ])
            #expect(
                seen["phoneNoNewUser"] == [
                    "unknown": nil, "signedIn": "+14155550123", "unknownTexted": 0, "created": false,
                ])
            #expect(seen["expired"] == ["code": "flow_state_expired", "status": 422])
            #expect(seen["wrongSMS"] == ["code": "otp_expired", "status": 403])
            #expect(
                seen["sms"] == [
                    "hasSession": true, "phone": "+14155550123", "confirmed": true, "user": "+14155550123",
                    "providers": ["phone"],
                ])
            #expect(seen["replayedSMS"] == ["code": "otp_expired", "status": 403])
            #expect(
                seen["apple"] == [
                    "hasSession": true, "email": "apple.ada@example.com", "identities": ["apple"], "user": true,
                ])
            #expect(seen["replayedAppleToken"] == ["code": "bad_jwt", "status": 400])
            #expect(seen["wrongNonce"] == ["code": "bad_jwt", "status": 400])
            #expect(seen["noNonce"] == ["code": "bad_jwt", "status": 400])
            #expect(seen["phoneChange"] == seen["sms"]?["phone"], "the number changes once its code is typed")
            #expect(seen["ownPhone"] == seen["sms"]?["phone"])
            // linkIdentityWithIdToken: never another user's identity, never its user's session.
            #expect(
                seen["linkTaken"] == [
                    "status": 422, "code": "identity_already_exists", "session": false, "newUsers": 0,
                    "appleUserKeepsIt": true,
                ])
            #expect(
                seen["linked"] == ["status": 200, "sameUser": true, "identities": ["apple", "phone"], "session": true])
            #expect(seen["afterUnlink"] == ["phone"])
            let disabled: JSONValue = ["code": "feature_disabled", "status": 422]
            #expect(seen["unlinkPhone"] == disabled)
            #expect(seen["unlinkAgain"] == ["code": "identity_not_found", "status": 422])
            #expect(seen["unlinkLast"] == ["code": "single_identity_not_deletable", "status": 422])
            // What is not built answers Supabase's own error for a feature that is off.
            #expect(
                seen["off"] == [
                    "anonymous": ["code": "anonymous_provider_disabled", "status": 422],
                    "web3": ["status": 422, "code": "web3_provider_disabled"],
                ])
            let keys = try await api.request("GET", "/auth/v1/.well-known/jwks.json")
            let gatehouseKeys = try await api.request("GET", "/.well-known/jwks.json")
            #expect(keys.status == 200 && keys.body == gatehouseKeys.body && !keys.body.isEmpty)
            // No code, verifier or token in any log line but the outbox's notices of the links.
            // (A link's random token may hold "eyJ" by chance: the notices are left out.)
            let leaks = api.log.split(separator: "\n").filter {
                !$0.hasPrefix("✉") && ($0.contains("eyJ") || $0.contains("code="))
            }
            #expect(leaks.isEmpty, "log lines with a token or code: \(leaks.map { $0.prefix(160) })")
        }
    }

    /// A challenge without its method, a malformed one or an unknown method is refused before
    /// anything is written or sent; so is a PKCE grant without its code or verifier.
    @Test func badPKCERequestsAreRefusedAndChangeNothing() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let key = try await apiKey()
            let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
            let account = #""email":"ada@example.com","password":"correct horse battery""#
            let cases: [(String, String, Int, String)] = [
                ("/signup", #"{\#(account),"code_challenge":"\#(challenge)"}"#, 400, "validation_failed"),
                ("/signup", #"{\#(account),"code_challenge_method":"s256"}"#, 400, "validation_failed"),
                (
                    "/signup", #"{\#(account),"code_challenge":"short","code_challenge_method":"s256"}"#, 400,
                    "validation_failed"
                ),
                (
                    "/signup", #"{\#(account),"code_challenge":"\#(challenge)","code_challenge_method":"md5"}"#, 400,
                    "validation_failed"
                ),
                (
                    "/recover", #"{"email":"ada@example.com","code_challenge":"\#(challenge)"}"#, 400,
                    "validation_failed"
                ),
                ("/otp", #"{"email":"ada@example.com","code_challenge_method":"s256"}"#, 400, "validation_failed"),
                ("/token?grant_type=pkce", #"{"auth_code":"abc"}"#, 400, "validation_failed"),
                ("/token?grant_type=pkce", #"{"code_verifier":"\#(challenge)"}"#, 400, "validation_failed"),
                (
                    "/token?grant_type=pkce", #"{"auth_code":"abc","code_verifier":"\#(challenge)"}"#, 404,
                    "flow_state_not_found"
                ),
            ]
            for (path, body, status, code) in cases {
                let answer = try await post(api, path, key: key, body)
                #expect(answer.status == status, "\(path) \(body)")
                #expect(Self.code(answer.body) == code, "\(path) \(body)")
            }
            #expect(try await cli.run(["db", "scan", "Users"]).stdoutText.isEmpty)
            #expect(try await cli.run(["outbox", "--json", "--to", "ada@example.com"]).stdoutText.isEmpty)
        }
    }
}
