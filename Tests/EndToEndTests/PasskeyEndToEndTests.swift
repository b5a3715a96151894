import Foundation
import GatehouseJSON
import JOSE
import Testing
import WebAuthnTesting

/// Passkeys through start-api on Supabase's routes, as supabase-swift's `registerPasskey` and
/// `signInWithPasskey` call them, with a software authenticator in place of the platform's
/// (an iPhone's origin, `https://<rpId>`): registration, a username-less sign-in at `aal2`, the
/// list, a rename, the refusals, and the passkeys gone with their account, in the store too.
@Suite(.serialized)
struct PasskeyEndToEndTests {
    let cli = GatehouseCLI()

    /// One Supabase request: the status and the JSON answer.
    static func call(
        _ api: LocalAPI, _ method: String, _ path: String, key: String, token: String? = nil, body: JSONValue? = nil
    ) async throws -> (status: Int, json: JSONValue?) {
        var headers = [("apikey", key), ("Content-Type", "application/json"), ("X-Supabase-Api-Version", "2024-01-01")]
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        let answer = try await api.request(method, path, headers: headers, body: body.map { Array($0.serialized.utf8) })
        return (answer.status, try? JSONValue(parsing: answer.body))
    }

    /// Registers `authenticator`'s credential for the user of `token`: the verify's answer.
    static func register(
        _ authenticator: SoftwareAuthenticator, api: LocalAPI, key: String, token: String
    ) async throws -> (status: Int, json: JSONValue?) {
        let begun = try await call(api, "POST", "/auth/v1/passkeys/registration/options", key: key, token: token)
        #expect(begun.status == 200, "\(String(describing: begun.json))")
        let options = try #require(begun.json?["options"])
        #expect(options["rp"]?["id"] == "localhost")
        #expect(options["authenticatorSelection"]?["residentKey"] == "required")
        return try await call(
            api, "POST", "/auth/v1/passkeys/registration/verify", key: key, token: token,
            body: [
                "challenge_id": try #require(begun.json?["challenge_id"]),
                "credential": try authenticator.registrationJSON(options: options),
            ])
    }

    /// A username-less sign-in with `authenticator` for the user `userID`: the verify's answer.
    static func signIn(
        _ authenticator: SoftwareAuthenticator, userID: String, api: LocalAPI, key: String
    ) async throws -> (status: Int, json: JSONValue?) {
        let begun = try await call(api, "POST", "/auth/v1/passkeys/authentication/options", key: key)
        #expect(begun.status == 200 && begun.json?["expires_at"]?.numberValue != nil)
        let options = try #require(begun.json?["options"])
        #expect(options["rpId"] == "localhost" && options["userVerification"] == "required")
        return try await call(
            api, "POST", "/auth/v1/passkeys/authentication/verify", key: key,
            body: [
                "challenge_id": try #require(begun.json?["challenge_id"]),
                "credential": try authenticator.assertionJSON(options: options, userHandle: Array(userID.utf8)),
            ])
    }

    @Test func aPasskeySignsInAtAAL2AndGoesWithItsAccount() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let key = try await SupabaseClientTests.apiKey(cli)
            let token = try #require(try await api.signIn("ada@example.com", cli: cli).accessToken)
            let userID = try #require(try AccessTokenHookEndToEndTests.claims(token)["sub"]?.stringValue)
            var phone = SoftwareAuthenticator()
            phone.origin = "https://localhost"  // a native app's passkey: https://<rpId>

            let registered = try await Self.register(phone, api: api, key: key, token: token)
            #expect(registered.status == 200, "\(String(describing: registered.json))")
            let passkeyID = try #require(registered.json?["id"]?.stringValue)
            #expect(registered.json?["friendly_name"] == "Passkey" && registered.json?["created_at"] != nil)
            // supabase-swift lists at `passkeys/`, with the trailing slash.
            let listed = try await Self.call(api, "GET", "/auth/v1/passkeys/", key: key, token: token)
            #expect(listed.status == 200 && listed.json?.arrayValue?.count == 1)
            #expect(
                listed.json?.arrayValue?.first?["backup_eligible"] == true
                    && listed.json?.arrayValue?.first?["flagged"] == false)

            let signedIn = try await Self.signIn(phone, userID: userID, api: api, key: key)
            #expect(signedIn.status == 200, "\(String(describing: signedIn.json))")
            let access = try #require(signedIn.json?["access_token"]?.stringValue)
            let claims = try AccessTokenHookEndToEndTests.claims(access)
            #expect(claims["aal"] == "aal2" && claims["sub"] == .string(userID))
            let methods = claims["amr"]?.arrayValue?.compactMap { $0["method"]?.stringValue }
            #expect(methods == ["webauthn", "passkey"])
            #expect(signedIn.json?["user"]?["id"] == .string(userID) && signedIn.json?["refresh_token"] != nil)

            let renamed = try await Self.call(
                api, "PATCH", "/auth/v1/passkeys/\(passkeyID)", key: key, token: access,
                body: ["friendly_name": "Ada's iPhone"])
            #expect(renamed.status == 200 && renamed.json?["friendly_name"] == "Ada's iPhone")
            #expect(renamed.json?["last_used_at"] != nil)

            // The store holds the public key and the owner item; no log line names the credential.
            let stored = try await cli.run(["db", "scan", "Passkeys"]).stdoutText
            #expect(stored.contains(Base64URL.encode(phone.credentialID)) && stored.contains("\"entry\":\"owner\""))
            #expect(!api.log.contains(Base64URL.encode(phone.credentialID)))

            // The account goes, and its passkeys with it: nothing is left, and the passkey signs nobody in.
            let deleted = try await api.request("DELETE", "/users/me", headers: [("Authorization", "Bearer \(access)")])
            #expect((200..<300).contains(deleted.status), "\(String(decoding: deleted.body, as: UTF8.self))")
            let left = try await cli.run(["db", "scan", "Passkeys"]).stdoutText
            #expect(!left.contains(userID) && !left.contains("\"entry\":\"owner\""), "\(left)")
            let after = try await Self.signIn(phone, userID: userID, api: api, key: key)
            #expect(after.status == 400 && after.json?["code"] == "webauthn_verification_failed")
        }
    }

    @Test func refusalsAnswerSupabasesCodes() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let key = try await SupabaseClientTests.apiKey(cli)
            let token = try #require(try await api.signIn("ada@example.com", cli: cli).accessToken)
            let userID = try #require(try AccessTokenHookEndToEndTests.claims(token)["sub"]?.stringValue)
            var browser = SoftwareAuthenticator()
            browser.origin = "http://127.0.0.1:\(api.port)"  // the hosted page's origin
            #expect(try await Self.register(browser, api: api, key: key, token: token).status == 200)

            // The same credential for another user: registered once across all users.
            let eve = try #require(try await api.signIn("eve@example.com", cli: cli).accessToken)
            let again = try await Self.register(browser, api: api, key: key, token: eve)
            #expect(again.status == 422 && again.json?["code"] == "webauthn_credential_exists")

            // Without user verification, or from a site that is not allowed: refused, no session.
            var unverified = browser
            unverified.verifiesUser = false
            var elsewhere = browser
            elsewhere.origin = "https://evil.example"
            for refused in [unverified, elsewhere] {
                let answer = try await Self.signIn(refused, userID: userID, api: api, key: key)
                #expect(answer.status == 400 && answer.json?["code"] == "webauthn_verification_failed")
            }
            // Bytes that are not CBOR where the attestation object goes: refused by name.
            let begunRegistration = try await Self.call(
                api, "POST", "/auth/v1/passkeys/registration/options", key: key, token: token)
            var garbled = SoftwareAuthenticator()
            garbled.origin = browser.origin
            guard
                case .object(var credential) = try garbled.registrationJSON(
                    options: try #require(begunRegistration.json?["options"])),
                case .object(var response)? = credential["response"]
            else { throw CocoaError(.coderReadCorrupt) }
            response["attestationObject"] = .string(Base64URL.encode([0xBF, 0xFF, 0x5B, 0xFF, 0xFF, 0xFF, 0xFF]))
            credential["response"] = .object(response)
            let malformed = try await Self.call(
                api, "POST", "/auth/v1/passkeys/registration/verify", key: key, token: token,
                body: [
                    "challenge_id": try #require(begunRegistration.json?["challenge_id"]),
                    "credential": .object(credential),
                ])
            #expect(malformed.status == 400 && malformed.json?["code"] == "webauthn_verification_failed")
            // No challenge reaches a log line.
            let challenge = try #require(begunRegistration.json?["options"]?["challenge"]?.stringValue)
            #expect(!api.log.contains(challenge))

            // A challenge answered twice.
            let begun = try await Self.call(api, "POST", "/auth/v1/passkeys/authentication/options", key: key)
            let body: JSONValue = [
                "challenge_id": try #require(begun.json?["challenge_id"]),
                "credential": try browser.assertionJSON(
                    options: try #require(begun.json?["options"]), userHandle: Array(userID.utf8)),
            ]
            let first = try await Self.call(
                api, "POST", "/auth/v1/passkeys/authentication/verify", key: key, body: body)
            #expect(first.status == 200)
            let second = try await Self.call(
                api, "POST", "/auth/v1/passkeys/authentication/verify", key: key, body: body)
            #expect(second.status == 400 && second.json?["code"] == "webauthn_challenge_not_found")
            // Managing passkeys needs a session; an unknown one is 404.
            let anonymous = try await Self.call(api, "GET", "/auth/v1/passkeys", key: key)
            #expect(anonymous.status == 401 || anonymous.status == 403)
            let unknown = try await Self.call(
                api, "DELETE", "/auth/v1/passkeys/00000000-0000-4000-8000-000000000000", key: key, token: token)
            #expect(unknown.status == 404)
        }
    }
}
