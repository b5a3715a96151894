import Crypto
import Foundation
import GatehouseJSON
import Testing

/// MFA's step-up through start-api: a route an app puts behind the template's
/// `GatehouseAal2Authorizer` passes only sessions that verified a second factor, and deleting an
/// account with a verified factor needs such a session. The factor is enrolled and verified
/// through Supabase's `/factors` routes with codes computed here (RFC 6238).
@Suite(.serialized)
struct StepUpEndToEndTests {
    let cli = GatehouseCLI()

    /// The project's template with one more route of `UserProfile`, `GET /users/me/secure`,
    /// behind the `aal2` authorizer: what an app adds, with no code of its own.
    static func template() throws -> String {
        try GatehouseCLI.projectTemplate { resources in
            guard case .object(var profile)? = resources["UserProfile"],
                case .object(var properties)? = profile["Properties"], case .object(var events)? = properties["Events"]
            else { throw CocoaError(.fileReadCorruptFile) }
            events["SecureRoute"] = [
                "Type": "HttpApi",
                "Properties": [
                    "ApiId": ["Ref": "GatehouseApi"], "Path": "/users/me/secure", "Method": "GET",
                    "Auth": ["Authorizer": "GatehouseAal2Authorizer"],
                ],
            ]
            properties["Events"] = .object(events)
            profile["Properties"] = .object(properties)
            resources["UserProfile"] = .object(profile)
        }
    }

    /// RFC 6238's code of base32 `secret` at `time` (SHA-1, 6 digits, 30 s).
    static func totp(_ secret: String, at time: Double = Date().timeIntervalSince1970) throws -> String {
        var bits = 0
        var value = 0
        var key: [UInt8] = []
        for character in secret.uppercased() where character != "=" {
            let index = try #require("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".firstIndex(of: character))
            value = value << 5 | "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".distance(from: "A".startIndex, to: index)
            bits += 5
            if bits >= 8 {
                key.append(UInt8((value >> (bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        let counter = UInt64(time / 30).bigEndian
        let mac = Array(
            HMAC<Insecure.SHA1>.authenticationCode(
                for: withUnsafeBytes(of: counter) { Array($0) }, using: SymmetricKey(data: key)))
        let offset = Int(mac[19] & 0x0F)
        let number =
            (UInt32(mac[offset] & 0x7F) << 24 | UInt32(mac[offset + 1]) << 16
                | UInt32(mac[offset + 2]) << 8 | UInt32(mac[offset + 3])) % 1_000_000
        return String(format: "%06u", number)
    }

    @Test func anAAL2RouteAndAnAccountsDeletionNeedTheSecondFactor() async throws {
        // The authorizers remember a live session 30 s (the default): one raised a moment ago
        // still passes the aal2 route at once.
        try await LocalAPI.with(template: try Self.template(), cli: cli) { api in
            let key = try await SupabaseClientTests.apiKey(cli)
            let (_, signedIn) = try await api.signIn("ada@example.com", cli: cli)
            let first = try #require(signedIn)
            func call(
                _ method: String, _ path: String, _ token: String, _ body: String? = nil
            ) async throws -> (
                Int, JSONValue?
            ) {
                let answer = try await api.request(
                    method, path,
                    headers: [
                        ("Authorization", "Bearer \(token)"), ("apikey", key), ("Content-Type", "application/json"),
                        ("X-Supabase-Api-Version", "2024-01-01"),
                    ], body: body.map { Array($0.utf8) })
                return (answer.status, try? JSONValue(parsing: answer.body))
            }
            // No factor: the aal2 route refuses the session, the plain one lets it through.
            #expect(try await call("GET", "/users/me/secure", first).0 == 403)
            #expect(try await call("GET", "/users/me", first).0 == 200)

            let (_, enrolled) = try await call("POST", "/auth/v1/factors", first, #"{"factor_type":"totp"}"#)
            let factor = try #require(enrolled?["id"]?.stringValue)
            let secret = try #require(enrolled?["totp"]?["secret"]?.stringValue)
            let (_, challenge) = try await call("POST", "/auth/v1/factors/\(factor)/challenge", first, "{}")
            let challengeID = try #require(challenge?["id"]?.stringValue)
            let (status, verified) = try await call(
                "POST", "/auth/v1/factors/\(factor)/verify", first,
                #"{"challenge_id":"\#(challengeID)","code":"\#(try Self.totp(secret))"}"#)
            #expect(status == 200, "\(String(describing: verified))")
            let raised = try #require(verified?["access_token"]?.stringValue)

            // The raised session passes; a new sign-in (aal1) does not, and cannot delete the
            // account, nor change its password through Supabase's route.
            let (secureStatus, secure) = try await call("GET", "/users/me/secure", raised)
            #expect(
                secureStatus == 200 && secure?["email"] == "ada@example.com",
                "\(String(describing: secure)) \(api.log.suffix(3000))")
            let (_, again) = try await api.signIn("ada@example.com", cli: cli)
            let plain = try #require(again)
            #expect(try await call("GET", "/users/me/secure", plain).0 == 403)
            let (deleteStatus, refusal) = try await call("DELETE", "/users/me", plain)
            #expect(deleteStatus == 403 && refusal?["error"] == "aal2_required", "\(String(describing: refusal))")
            let (putStatus, putRefusal) = try await call(
                "PUT", "/auth/v1/user", plain, #"{"password":"a new horse battery staple"}"#)
            #expect(putStatus == 401 && putRefusal?["code"] == "insufficient_aal", "\(String(describing: putRefusal))")
            #expect(try await call("GET", "/users/me", plain).0 == 200)

            // The session that verified the factor deletes the account.
            let (deleted, _) = try await call("DELETE", "/users/me", raised)
            #expect(deleted == 200)
            // (API Gateway's cached answer still lets the token through, to no user.)
            let (gone, goneAnswer) = try await call("GET", "/users/me", plain)
            #expect(gone == 404 && goneAnswer?["error"] == "user_not_found", "\(String(describing: goneAnswer))")
        }
    }
}
