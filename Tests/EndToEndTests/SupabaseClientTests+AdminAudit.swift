import Foundation
import GatehouseJSON
import Testing

extension SupabaseClientTests {
    /// Each admin action through start-api (create, change, ban, unban, sign out, delete) is in
    /// the audit log with the id of the server key that made it and the key's app, never the
    /// key: read back by `GET /auth/v1/admin/audit` (filtered by user, by action, paged) and by
    /// `gatehouse audit`; a terminal's ban is the `system`'s; a bad filter is a 400 by name.
    @Test func adminActionsAreAuditedWithTheKeyThatMadeThem() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let (key, keyID) = try await serverKey("demo")
            let headers = [("apikey", key), ("Authorization", "Bearer \(key)"), ("Content-Type", "application/json")]
            func send(_ method: String, _ path: String, _ body: String? = nil) async throws -> (Int, JSONValue?) {
                let answer = try await api.request(
                    method, "/auth/v1\(path)", headers: headers, body: body.map { Array($0.utf8) })
                return (answer.status, try? JSONValue(parsing: answer.body))
            }
            let (created, user) = try await send(
                "POST", "/admin/users", #"{"email":"audited@example.com","password":"a long passphrase 17"}"#)
            #expect(created == 200)
            let id = try #require(user?["id"]?.stringValue)
            #expect(try await send("PUT", "/admin/users/\(id)", #"{"ban_duration":"24h"}"#).0 == 200)
            #expect(try await send("PUT", "/admin/users/\(id)", #"{"ban_duration":"none"}"#).0 == 200)
            _ = try await cli.run(["users", "ban", id, "--for", "1h"])
            _ = try await cli.run(["users", "signout", id])
            #expect(try await send("DELETE", "/admin/users/\(id)").0 == 200)

            var events: [JSONValue] = []
            #expect(
                try await eventuallyAwaiting(10) {
                    events =
                        try await send("GET", "/admin/audit?user_id=\(id)&limit=100").1?["events"]?.arrayValue ?? []
                    return events.first?["action"] == "admin_user_deleted"
                }, "\(events)")
            let actions = events.map { "\($0["action"]?.stringValue ?? ""):\($0["actor"]?.stringValue ?? "")" }
            // Newest first; a change and the ban it carries share their request's millisecond.
            let expected = [
                "admin_user_deleted:admin key \(keyID)", "admin_sign_out:system", "ban:system",
                "unban:admin key \(keyID)", "admin_user_updated:admin key \(keyID)",
                "ban:admin key \(keyID)", "admin_user_updated:admin key \(keyID)",
                "admin_user_created:admin key \(keyID)",
            ]
            #expect(actions.sorted() == expected.sorted(), "\(actions)")
            #expect(actions.prefix(3) == expected.prefix(3) && actions.last == expected.last, "\(actions)")
            #expect(events.filter { $0["actor"] != "system" }.allSatisfy { $0["app"] == "demo" })

            let (_, bans) = try await send("GET", "/admin/audit?action=ban&limit=1")
            #expect(bans?["events"]?.arrayValue?.count == 1 && bans?["events"]?.arrayValue?.first?["actor"] == "system")
            let next = try #require(bans?["next"]?.stringValue)
            let (_, older) = try await send("GET", "/admin/audit?action=ban&limit=1&cursor=\(next)")
            #expect(older?["events"]?.arrayValue?.first?["actor"] == .string("admin key \(keyID)"))
            let (bad, refusal) = try await send("GET", "/admin/audit?action=nope")
            #expect(bad == 400 && refusal?["error_code"] == "validation_failed", "\(String(describing: refusal))")

            let printed = try await cli.run(["audit", "--user", id, "--json"]).stdoutText
            #expect(printed.split(separator: "\n").count == events.count)
            let table = try await cli.run(["db", "scan", "AuditLog"]).stdoutText
            #expect(!table.contains(key) && !table.contains("a long passphrase"))
            // A browser is refused before anything is read.
            let fromPage = try await api.request(
                "GET", "/auth/v1/admin/audit", headers: headers + [("Origin", "http://127.0.0.1:\(api.port)")])
            #expect(fromPage.status == 401)
            // A same-origin GET carries no Origin, but a browser's fetch metadata.
            let sameOrigin = try await api.request(
                "GET", "/auth/v1/admin/audit", headers: headers + [("Sec-Fetch-Site", "same-origin")])
            #expect(sameOrigin.status == 401)
        }
    }
}
