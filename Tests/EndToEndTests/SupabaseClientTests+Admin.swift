import Emulator
import Foundation
import GatehouseJSON
import TestServers
import Testing

/// Supabase's admin API (`SupabaseAdmin`) through start-api with an app's server key, driven by
/// Supabase's own Python client (`Tests/Support/Supabase/supabase_admin.py`), and the key's
/// refusals: a browser's request, a revoked key, an unknown one, the publishable key, a key of an
/// app removed since.
extension SupabaseClientTests {
    /// A new server key of `app`: what `gatehouse apps key create` printed (the key alone on
    /// standard output) and its id (`apps key list`, newest last).
    func serverKey(_ app: String) async throws -> (secret: String, id: String) {
        let secret = try await cli.run(["apps", "key", "create", app]).stdoutText
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let listed = try await cli.run(["apps", "key", "list", app]).stdoutText.split(separator: "\n")
        let id = try #require(try listed.last.map { try JSONValue(parsing: Array($0.utf8)) }?["id"]?.stringValue)
        #expect(!listed.joined().contains(secret))
        return (secret, id)
    }

    @Test func supabasesAdminClientManagesUsersWithAServerKeyAndItsRefusals() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let (live, _) = try await serverKey("demo")
            let (revoked, revokedID) = try await serverKey("demo")
            _ = try await cli.run(["apps", "key", "revoke", "demo", revokedID])
            _ = try await cli.run(["apps", "add", "--id", "gone", "--name", "Gone", "--mobile-scheme", "gone"])
            let (removed, _) = try await serverKey("gone")
            _ = try await cli.run(["apps", "remove", "gone"])
            guard
                let seen = try await client(
                    "supabase_admin.py", api: api, extra: [live, revoked, removed])
            else { return }
            #expect(
                seen["created"] == [
                    "email": "made@example.com", "confirmed": true, "metadata": ["plan": "free"], "role": "support",
                    "provider": "email",
                ])
            #expect(seen["signsIn"] == true)
            #expect(seen["duplicate"] == ["code": "email_exists", "status": 422])
            #expect(seen["listed"] == ["second@example.com"])
            #expect(seen["total"] == "2")
            #expect(
                seen["link"]
                    == "</admin/users?page=2&per_page=1>; rel=\"next\", </admin/users?page=2&per_page=1>; rel=\"last\"")
            #expect(seen["byId"] == "made@example.com")
            #expect(seen["updated"] == ["plan": "pro"])
            #expect(seen["bannedUntil"] == true)
            #expect(seen["refreshWhileBanned"]?["status"] == 400)
            #expect(seen["signInWhileBanned"] == ["code": "user_banned", "status": 400])
            #expect(seen["badDuration"] == ["code": "validation_failed", "status": 400])
            #expect(seen["lifted"] == true)
            #expect(seen["signInAfter"] == true)
            #expect(seen["factors"] == 0)
            #expect(
                seen["magicLink"] == ["user": "made@example.com", "type": "magiclink", "verifyLink": true, "mailed": 0])
            #expect(seen["magicSignsIn"] == true)
            #expect(seen["recoverySignsIn"] == true)
            #expect(seen["recoveryUnknown"] == ["code": "user_not_found", "status": 404])
            #expect(seen["signupLink"] == ["code": "feature_disabled", "status": 422])
            #expect(
                seen["invited"] == ["email": "invited@example.com", "confirmed": false, "metadata": ["team": "blue"]])
            #expect(seen["inviteAccepted"] == ["sameId": true, "confirmed": true])
            #expect(seen["inviteAgain"] == ["code": "email_exists", "status": 422])
            #expect(seen["softDelete"] == ["code": "feature_disabled", "status": 422])
            #expect(seen["afterDelete"] == ["code": "user_not_found", "status": 404])
            for refusal in ["publishableKey", "unknownKey", "revokedKey", "removedAppKey", "fromBrowser"] {
                #expect(seen[refusal] == ["code": "invalid_api_key", "status": 401], "\(refusal)")
            }
            // No log line of the API has a server key.
            let logs = api.log
            #expect(!logs.contains(live) && !logs.contains(revoked), "a server key was logged")
        }
    }

    /// What supabase-swift's `AuthAdmin` sends where supabase-py sends otherwise or nothing
    /// (`Sources/Auth/AuthAdmin.swift`): `listUsers` with empty `page` and `per_page`,
    /// `inviteUserByEmail` to `/admin/invite`, `createUser` with its snake_case attributes, the
    /// passkey routes; and a key only as `apikey` with another bearer refused.
    @Test func supabaseSwiftsAdminRequestShapesPassThrough() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let (key, _) = try await serverKey("demo")
            let headers = [
                ("apikey", key), ("Authorization", "Bearer \(key)"), ("Content-Type", "application/json"),
                ("X-Supabase-Api-Version", "2024-01-01"),
            ]
            func send(_ method: String, _ path: String, _ body: String? = nil) async throws -> (Int, JSONValue?) {
                let answer = try await api.request(
                    method, "/auth/v1\(path)", headers: headers, body: body.map { Array($0.utf8) })
                return (answer.status, try? JSONValue(parsing: answer.body))
            }
            let (created, user) = try await send(
                "POST", "/admin/users",
                #"{"email":"swift@example.com","email_confirm":true,"user_metadata":{"a":1},"ban_duration":"none"}"#)
            #expect(created == 200 && user?["email"] == "swift@example.com")
            let id = try #require(user?["id"]?.stringValue)
            let list = try await api.request("GET", "/auth/v1/admin/users?page=&per_page=", headers: headers)
            #expect(list.status == 200)
            #expect(list.headers.first { $0.0.lowercased() == "x-total-count" }?.1 == "1")
            #expect(try JSONValue(parsing: list.body)["aud"] == "authenticated")
            let (invited, invitee) = try await send(
                "POST", "/admin/invite?redirect_to=http%3A%2F%2F127.0.0.1%3A\(api.port)%2F",
                #"{"email":"swiftinvite@example.com","data":null}"#)
            #expect(invited == 200 && invitee?["email"] == "swiftinvite@example.com", "\(String(describing: invitee))")
            let (passkeys, listed) = try await send("GET", "/admin/users/\(id)/passkeys")
            #expect(passkeys == 200 && listed == [])
            let (missing, refusal) = try await send(
                "DELETE", "/admin/users/\(id)/passkeys/3e8f4e4f-0193-4b2a-84b3-1a3f3b6f4b4d")
            #expect(missing == 404 && refusal?["code"] == "validation_failed")
            let (unknown, nobody) = try await send("GET", "/admin/users/3e8f4e4f-0193-4b2a-84b3-1a3f3b6f4b4d")
            #expect(unknown == 404 && nobody?["code"] == "user_not_found")
            let (withRole, refused) = try await send(
                "POST", "/admin/users", #"{"email":"r@example.com","role":"admin"}"#)
            #expect(withRole == 422 && refused?["code"] == "feature_disabled")
            // The key as apikey, another bearer (a user's token): refused.
            let mixed = try await api.request(
                "GET", "/auth/v1/admin/users", headers: [("apikey", key), ("Authorization", "Bearer someone-else")])
            #expect(mixed.status == 401)
        }
    }
}
