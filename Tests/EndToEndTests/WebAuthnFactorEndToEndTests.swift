import Foundation
import GatehouseJSON
import JOSE
import Testing
import WebAuthnTesting

/// WebAuthn as an MFA factor through start-api, as supabase-swift's `enrollWebAuthnFactor` and
/// `verifyWebAuthnFactor` call it (`POST /factors`, `…/challenge`, `…/verify` with
/// `{challenge_id, webauthn: {credential_response}}`), with a software authenticator on an
/// iPhone's origin (`https://<rpId>`): off by default, and on with `WebAuthnFactors=enabled`.
@Suite(.serialized)
struct WebAuthnFactorEndToEndTests {
    let cli = GatehouseCLI()

    @Test func offByDefaultEnrollingOneIsSupabasesRefusal() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let key = try await SupabaseClientTests.apiKey(cli)
            let token = try #require(try await api.signIn("ada@example.com", cli: cli).accessToken)
            let enrolled = try await PasskeyEndToEndTests.call(
                api, "POST", "/auth/v1/factors", key: key, token: token,
                body: ["factor_type": "webauthn", "friendly_name": "key"])
            #expect(enrolled.status == 422 && enrolled.json?["code"] == "mfa_webauthn_enroll_not_enabled")
        }
    }

    @Test func aFactorRegistersItsCredentialThenAnAssertionRaisesANewSession() async throws {
        try await LocalAPI.with(cli: cli, extra: ["--parameter-overrides", "WebAuthnFactors=enabled"]) { api in
            let key = try await SupabaseClientTests.apiKey(cli)
            let token = try #require(try await api.signIn("ada@example.com", cli: cli).accessToken)
            var phone = SoftwareAuthenticator()
            phone.origin = "https://localhost"
            let enrolled = try await PasskeyEndToEndTests.call(
                api, "POST", "/auth/v1/factors", key: key, token: token,
                body: ["factor_type": "webauthn", "friendly_name": "iPhone"])
            #expect(
                enrolled.status == 200 && enrolled.json?["type"] == "webauthn", "\(String(describing: enrolled.json))")
            #expect(enrolled.json?["totp"] == nil)
            let factorID = try #require(enrolled.json?["id"]?.stringValue)

            let created = try await Self.raise(
                phone, factorID: factorID, ceremony: "create", api: api, key: key, token: token)
            #expect(try AccessTokenHookEndToEndTests.claims(created)["aal"] == "aal2")

            // A new sign-in at aal1, raised by an assertion of the same credential.
            let later = try #require(try await api.signIn("ada@example.com", cli: cli).accessToken)
            #expect(try AccessTokenHookEndToEndTests.claims(later)["aal"] == "aal1")
            let asserted = try await Self.raise(
                phone, factorID: factorID, ceremony: "request", api: api, key: key, token: later)
            let claims = try AccessTokenHookEndToEndTests.claims(asserted)
            let methods = claims["amr"]?.arrayValue?.compactMap { $0["method"]?.stringValue } ?? []
            #expect(claims["aal"] == "aal2" && methods.first == "mfa/webauthn", "\(claims)")

            // The relying party is the deployment's: a client naming another is refused by name.
            let elsewhere = try await PasskeyEndToEndTests.call(
                api, "POST", "/auth/v1/factors/\(factorID)/challenge", key: key, token: later,
                body: ["webauthn": ["rp_id": "example.com"]])
            #expect(elsewhere.status == 400 && elsewhere.json?["code"] == "validation_failed")
            let same = try await PasskeyEndToEndTests.call(
                api, "POST", "/auth/v1/factors/\(factorID)/challenge", key: key, token: later,
                body: ["webauthn": ["rp_id": "localhost", "rp_origins": ["https://localhost"]]])
            #expect(same.status == 200 && same.json?["webauthn"]?["type"] == "request")

            // Without user verification, refused by name.
            var unverified = phone
            unverified.verifiesUser = false
            let third = try #require(try await api.signIn("ada@example.com", cli: cli).accessToken)
            let challenge = try await PasskeyEndToEndTests.call(
                api, "POST", "/auth/v1/factors/\(factorID)/challenge", key: key, token: third)
            let options = try #require(challenge.json?["webauthn"]?["credential_options"])
            let refused = try await PasskeyEndToEndTests.call(
                api, "POST", "/auth/v1/factors/\(factorID)/verify", key: key, token: third,
                body: [
                    "challenge_id": try #require(challenge.json?["id"]),
                    "webauthn": [
                        "credential_response": try unverified.assertionJSON(
                            options: options, userHandle: Array(factorID.utf8))
                    ],
                ])
            #expect(refused.status == 422 && refused.json?["code"] == "mfa_verification_failed")
        }
    }

    /// A challenge of factor `factorID` (its `ceremony` checked) answered by `authenticator` as
    /// supabase-swift sends it (no `type`): the raised session's access token.
    static func raise(
        _ authenticator: SoftwareAuthenticator, factorID: String, ceremony: String, api: LocalAPI, key: String,
        token: String
    ) async throws -> String {
        let challenge = try await PasskeyEndToEndTests.call(
            api, "POST", "/auth/v1/factors/\(factorID)/challenge", key: key, token: token)
        #expect(challenge.status == 200, "\(String(describing: challenge.json))")
        #expect(challenge.json?["type"] == "webauthn" && challenge.json?["expires_at"]?.numberValue != nil)
        #expect(challenge.json?["webauthn"]?["type"] == .string(ceremony))
        let options = try #require(challenge.json?["webauthn"]?["credential_options"])
        // What supabase-swift reads, and supabase/auth's `publicKey` beside it.
        #expect(options["publicKey"]?["challenge"] == options["challenge"])
        #expect((ceremony == "create" ? options["rp"]?["id"] : options["rpId"]) == "localhost")
        let credential =
            ceremony == "create"
            ? try authenticator.registrationJSON(options: options)
            : try authenticator.assertionJSON(options: options, userHandle: Array(factorID.utf8))
        let verified = try await PasskeyEndToEndTests.call(
            api, "POST", "/auth/v1/factors/\(factorID)/verify", key: key, token: token,
            body: [
                "factor_id": .string(factorID), "challenge_id": try #require(challenge.json?["id"]),
                "webauthn": ["credential_response": credential],
            ])
        #expect(verified.status == 200, "\(String(describing: verified.json))")
        return try #require(verified.json?["access_token"]?.stringValue)
    }
}
