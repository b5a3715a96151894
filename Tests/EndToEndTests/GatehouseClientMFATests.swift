import Crypto
import Foundation
import GatehouseClient
import GatehouseJSON
import Testing

/// `GatehouseClient`'s second factors against start-api and the real functions: a TOTP factor
/// enrolled, a wrong code and a replayed one refused, the right one raising the kept session to
/// `aal2` (new tokens), the assurance level before and after, another session told it can step
/// up and refused an unenrol, and the unenrol that lowers the session. The codes come from an
/// RFC 6238 generator written here (HMAC-SHA-1 from swift-crypto).
@Suite(.serialized)
struct GatehouseClientMFATests {
    let cli = GatehouseCLI()

    /// The six-digit TOTP code of the base32 `secret` at `date` (30-second steps).
    static func totp(_ secret: String, at date: Date = Date()) throws -> String {
        let key = try #require(base32(secret))
        var counter = UInt64(date.timeIntervalSince1970 / 30).bigEndian
        let message = withUnsafeBytes(of: &counter) { Data($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: key)))
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let number = mac[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } & 0x7fff_ffff
        return String(format: "%06u", number % 1_000_000)
    }

    /// RFC 4648 base32 without padding; nil for any other character.
    static func base32(_ text: String) -> [UInt8]? {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var bits = 0
        var value = 0
        var bytes: [UInt8] = []
        for character in text where character != "=" {
            guard let index = alphabet.firstIndex(of: character) else { return nil }
            value = value << 5 | index
            bits += 5
            if bits >= 8 {
                bytes.append(UInt8((value >> (bits - 8)) & 0xff))
                bits -= 8
            }
        }
        return bytes
    }

    /// A client of the demo app signed in as `email` with a fresh auth code.
    func signedIn(_ api: LocalAPI, _ email: String) async throws -> GatehouseClient {
        let client = GatehouseClient(baseURL: URL(string: "http://127.0.0.1:\(api.port)")!, app: "demo")
        let code = try await cli.run(["dev", "auth-code", "--app", "demo", "--email", email])
        try await client.signIn(withCode: code.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))
        return client
    }

    /// The Supabase error code a call was refused with.
    static func refusal(_ call: () async throws -> Void) async -> String? {
        do {
            try await call()
        } catch GatehouseClientError.refused(_, let code, _) {
            return code
        } catch {
            return "\(error)"
        }
        return nil
    }

    @Test func aTOTPFactorEnrolsVerifiesRaisesTheKeptSessionAndUnenrols() async throws {
        // Hour-long access tokens, so that the client's calls do not each refresh a 5-minute one.
        let variables = Dictionary(
            uniqueKeysWithValues: ["Exchange", "Refresh", "SupabaseUser"].map {
                ($0, GatehouseClientTests.hourLongTokens)
            })
        try await LocalAPI.with(cli: cli, variables: variables) { api in
            let key = try await SupabaseClientTests.apiKey(cli)
            let client = try await signedIn(api, "mfa-client@example.com")
            let before = try await client.assuranceLevel(apiKey: key)
            #expect(before.current == .aal1 && before.next == .aal1 && !before.canStepUp)

            let enrolled = try await client.enrollTOTP(friendlyName: "phone app", issuer: "Gatehouse", apiKey: key)
            #expect(enrolled.uri.hasPrefix("otpauth://totp/Gatehouse:mfa-client%40example.com?"))
            #expect(enrolled.qrCode.hasPrefix("data:image/svg+xml;utf-8,<svg") && enrolled.friendlyName == "phone app")
            // The first enrolment's recovery codes reach the app, ten of them, each shown once.
            #expect(Set(enrolled.recoveryCodes).count == 10 && enrolled.recoveryCodes.allSatisfy { $0.count == 11 })
            let listed = try await client.factors(apiKey: key)
            #expect(listed.map(\.id) == [enrolled.factorID] && listed.map(\.isVerified) == [false])
            #expect(
                try await client.assuranceLevel(apiKey: key).next == .aal1, "an unverified factor is no second factor")

            let code = try Self.totp(enrolled.secret)
            let wrong = code == "000000" ? "111111" : "000000"
            #expect(
                await Self.refusal {
                    try await client.challengeAndVerifyFactor(enrolled.factorID, code: wrong, apiKey: key)
                }
                    == "mfa_verification_failed")
            let kept = try #require(try await client.tokens)
            let challenge = try await client.challengeFactor(enrolled.factorID, apiKey: key)
            #expect(abs(challenge.expiresAt.timeIntervalSinceNow - 300) < 10)
            let user = try await client.verifyFactor(
                enrolled.factorID, challengeID: challenge.id, code: code, apiKey: key)
            #expect(user.email == "mfa-client@example.com")
            let raised = try #require(try await client.tokens)
            #expect(raised.accessToken != kept.accessToken && raised.refreshToken != kept.refreshToken)
            let after = try await client.assuranceLevel(apiKey: key)
            #expect(after.current == .aal2 && after.next == .aal2 && after.methods == ["totp", "otp"])
            #expect(try await client.factors(apiKey: key).map(\.isVerified) == [true])
            // A code works once.
            #expect(
                await Self.refusal {
                    try await client.challengeAndVerifyFactor(enrolled.factorID, code: code, apiKey: key)
                }
                    == "mfa_verification_failed")

            // Another sign-in of the user starts at aal1 and is told it can step up; it may not
            // remove the factor.
            let other = try await signedIn(api, "mfa-client@example.com")
            let level = try await other.assuranceLevel(apiKey: key)
            #expect(level.current == .aal1 && level.next == .aal2 && level.canStepUp)
            #expect(
                await Self.refusal { try await other.unenrollFactor(enrolled.factorID, apiKey: key) }
                    == "insufficient_aal")

            // Unenrolled from aal2: the kept session's new tokens say aal1.
            try await client.unenrollFactor(enrolled.factorID, apiKey: key)
            let lowered = try await client.assuranceLevel(apiKey: key)
            #expect(lowered.current == .aal1 && lowered.next == .aal1 && lowered.methods == ["otp"])
            #expect(try await client.factors(apiKey: key).isEmpty)
            #expect(
                await Self.refusal { try await client.challengeFactor("not a factor/..", apiKey: key) }
                    == "mfa_factor_not_found")
        }
    }
}
