import Foundation
import GatehouseJSON
import Testing

extension SupabaseClientTests {
    /// A day of Supabase's Python client (`supabase_flow.py`: sign-up, a link, passwords right
    /// and wrong, a password change, a sign-out, a recovery, an address change), then a browser's password
    /// sign-in and six wrong passwords (a lock): read back by the user
    /// (`GET /users/me/security-events`) and by the operator (`gatehouse audit`), and no
    /// password, link token, access token or full `User-Agent` in the `AuditLog` table.
    @Test func aScriptedDayIsInTheAuditLogAndNoSecretIs() async throws {
        try await LocalAPI.with(cli: cli) { api in
            guard try await client("supabase_flow.py", api: api, extra: ["ada@example.com"]) != nil else { return }
            let key = try await apiKey()
            let browser =
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
            let signIn = try await post(
                api, "/token?grant_type=password", key: key,
                #"{"email":"new.ada@example.com","password":"recovered passphrase 42"}"#,
                headers: [("User-Agent", browser)])
            #expect(signIn.status == 200, "\(String(decoding: signIn.body, as: UTF8.self))")
            let session = try JSONValue(parsing: signIn.body)
            let token = try #require(session["access_token"]?.stringValue)
            let userID = try #require(session["user"]?["id"]?.stringValue)
            for _ in 0..<6 {
                let wrong = try await post(
                    api, "/token?grant_type=password", key: key,
                    #"{"email":"new.ada@example.com","password":"not the passphrase"}"#)
                #expect(Self.code(wrong.body) == "invalid_credentials")
            }

            // The user's own events, newest first, once the writes after the answers are done.
            var events: [JSONValue] = []
            #expect(
                try await eventuallyAwaiting(10) {
                    let answer = try await api.request(
                        "GET", "/users/me/security-events?limit=100", headers: [("Authorization", "Bearer \(token)")])
                    events = try JSONValue(parsing: answer.body)["events"]?.arrayValue ?? []
                    return events.first?["action"] == "lock"
                }, "\(api.log.suffix(3000))")
            let summary = Set(events.map { "\($0["action"]?.stringValue ?? ""):\($0["reason"]?.stringValue ?? "ok")" })
            for expected in [
                "sign_in:ok", "sign_in:wrong_password", "lock:locked", "password_change:ok", "recovery:ok",
                "email_change:ok", "sign_out:ok",
            ] {
                #expect(summary.contains(expected), "\(summary)")
            }
            #expect(events.allSatisfy { $0["user_id"] == .string(userID) })
            let chrome = try #require(events.first { $0["user_agent_family"] == "Chrome" })
            #expect(chrome["action"] == "sign_in" && chrome["method"] == "password" && chrome["app"] == "demo")
            #expect(chrome["source_ip"] == "127.0.0.1")

            let tooMany = try await api.request(
                "GET", "/users/me/security-events?limit=1000", headers: [("Authorization", "Bearer \(token)")])
            #expect(tooMany.status == 400)
            // A page at a time: the next page starts after the last event of this one.
            let first = try await api.request(
                "GET", "/users/me/security-events?limit=2", headers: [("Authorization", "Bearer \(token)")])
            let page = try JSONValue(parsing: first.body)
            #expect(page["events"]?.arrayValue == Array(events.prefix(2)))
            let cursor = try #require(page["next"]?.stringValue)
            let second = try await api.request(
                "GET", "/users/me/security-events?limit=2&cursor=\(cursor)",
                headers: [("Authorization", "Bearer \(token)")])
            #expect(try JSONValue(parsing: second.body)["events"]?.arrayValue == Array(events.dropFirst(2).prefix(2)))

            // The operator's reads.
            let byUser = try await cli.run(["audit", "--user", userID, "--limit", "100"]).stdoutText
            #expect(byUser.contains(" lock failure(locked) ") && byUser.contains(" password_change success "))
            let locks = try await cli.run(["audit", "--action", "lock", "--json"]).stdoutText
            let lines = try locks.split(separator: "\n").map { try JSONValue(parsing: Array($0.utf8)) }
            #expect(lines.count == 1 && lines.first?["user_id"] == .string(userID))

            // Nothing secret in the table.
            let table = try await cli.run(["db", "scan", "AuditLog"]).stdoutText
            #expect(table.contains(userID))
            var secrets = [
                "correct horse battery", "a brand new passphrase", "recovered passphrase 42", "not the passphrase",
                "nope nope nope", token, "Mozilla/5.0", "AppleWebKit", "@example.com", "eyJ",
            ]
            secrets += try await tokens("ada@example.com", type: "signup") + tokens("ada@example.com", type: "recovery")
            for secret in secrets { #expect(!table.contains(secret), "\(secret)") }
        }
    }

    /// `gatehouse audit` names a bad filter or retention, exits 2, and reads nothing.
    @Test func theAuditCommandRefusesABadFilterByName() async throws {
        for (arguments, message) in [
            (["--action", "nope"], "error: --action: no action is named nope"),
            (["--since", "yesterday"], "error: --since: give an ISO 8601 date or time, or epoch seconds"),
            (["--user", "ada"], "error: the audit query's user is not valid"),
            (["--limit", "0"], "error: the audit query's limit is not valid"),
        ] {
            let run = try await cli.run(["audit"] + arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderr.hasPrefix(message), "\(arguments): \(run.stderr)")
        }
        // The retention is read as the functions read it: the same bounds, the same words.
        for days in ["0", "3651", "ninety"] {
            let run = try await cli.run(["audit"], environment: ["AUDIT_RETENTION_DAYS": days])
            #expect(run.status == 2, "\(days)")
            #expect(
                run.stderr.hasPrefix("error: AUDIT_RETENTION_DAYS is invalid: give a number of days from 1 to 3650"),
                "\(days): \(run.stderr)")
        }
    }
}
