import Foundation
import GatehouseClient
import GatehouseJSON
import Testing
import WebAuthnTesting

/// `GatehouseClient`'s passkey calls against start-api and the real functions, with a software
/// authenticator where an app has `ASAuthorization`: a passkey registered by a signed-in client,
/// listed and renamed, a signed-out client signing in with it at `aal2`, and its removal, which
/// ends that session.
@Suite(.serialized)
struct GatehouseClientPasskeyTests {
    let cli = GatehouseCLI()

    @Test func aClientRegistersAPasskeyAndAnotherSignsInWithIt() async throws {
        let variables = Dictionary(
            uniqueKeysWithValues: ["Exchange", "Refresh", "SupabasePasskeys"].map {
                ($0, GatehouseClientTests.hourLongTokens)
            })
        try await LocalAPI.with(cli: cli, variables: variables) { api in
            let key = try await SupabaseClientTests.apiKey(cli)
            let base = URL(string: "http://127.0.0.1:\(api.port)")!
            let owner = GatehouseClient(baseURL: base, app: "demo")
            let code = try await cli.run(["dev", "auth-code", "--app", "demo", "--email", "passkey-client@example.com"])
            let user = try await owner.signIn(withCode: code.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))
            var phone = SoftwareAuthenticator()
            phone.origin = "https://localhost"

            let registration = try await owner.passkeyRegistrationOptions(apiKey: key)
            #expect(registration.relyingPartyID == "localhost" && !registration.challenge.isEmpty)
            let created = try phone.registrationJSON(options: try JSONValue(parsing: Array(registration.options)))
            let passkey = try await owner.registerPasskey(
                challengeID: registration.challengeID, credential: Data(created.serialized.utf8), apiKey: key)
            #expect(passkey.friendlyName == "Passkey" && passkey.backupEligible && !passkey.flagged)
            let renamed = try await owner.renamePasskey(passkey.id, to: "Ada's iPhone", apiKey: key)
            #expect(renamed.friendlyName == "Ada's iPhone")
            #expect(try await owner.passkeys(apiKey: key).map(\.id) == [passkey.id])

            // A client with nobody signed in signs in with the passkey alone.
            let device = GatehouseClient(baseURL: base, app: "demo")
            let begun = try await device.passkeySignInOptions(apiKey: key)
            let assertion = try phone.assertionJSON(
                options: try JSONValue(parsing: Array(begun.options)), userHandle: Array(user.id.utf8))
            let signedIn = try await device.signInWithPasskey(
                challengeID: begun.challengeID, credential: Data(assertion.serialized.utf8), apiKey: key)
            #expect(signedIn.id == user.id)
            let level = try await device.assuranceLevel(apiKey: key)
            #expect(level.current == .aal2 && level.methods == ["webauthn", "passkey"])
            // The same answer again is refused by Supabase's code.
            await #expect(
                throws: GatehouseClientError.refused(
                    status: 400, code: "webauthn_challenge_not_found", message: "Challenge not found or already used")
            ) {
                try await device.signInWithPasskey(
                    challengeID: begun.challengeID, credential: Data(assertion.serialized.utf8), apiKey: key)
            }

            // Removed from the owner's session: the session the passkey signed in ends with it.
            try await owner.deletePasskey(passkey.id, apiKey: key)
            #expect(try await owner.passkeys(apiKey: key).isEmpty)
            #expect(
                await GatehouseClientMFATests.refusal { _ = try await device.passkeys(apiKey: key) }
                    == "session_not_found")
        }
    }
}
