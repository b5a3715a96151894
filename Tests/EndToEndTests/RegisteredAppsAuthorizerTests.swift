import Foundation
import GatehouseJSON
import Testing

/// The project's Authorizer under start-api takes any registered app's tokens: the audience is
/// checked against the `Apps` table, not a fixed list (it was the literal `demo`).
struct RegisteredAppsAuthorizerTests {
    let cli = GatehouseCLI()

    func addApp(_ id: String) async throws {
        let added = try await cli.run(["apps", "add", "--id", id, "--name", id])
        #expect(added.status == 0, "stderr: \(added.stderr)")
    }

    func registered() async throws -> [String] {
        let run = try await cli.run(["apps", "list"])
        return try run.stdoutText.split(separator: "\n").compactMap { line in
            try JSONValue(parsing: Array(line.utf8))["id"]?.stringValue
        }
    }

    /// A second app's token passes `GET /users/me`; a token Gatehouse signed for an app that is
    /// no longer registered is refused with 403 (the HTTP API's answer to a refusal), not a 500.
    @Test func aSecondAppsTokenPassesAndAnUnregisteredAudienceIsRefused() async throws {
        try await addApp("second")
        try await addApp("gone")
        try await LocalAPI.with(cli: cli) { api in
            let second = try await api.signIn("ada@example.com", app: "second", cli: cli)
            #expect(second.status == 200)
            let secondToken = try #require(second.accessToken)
            let profile = try await api.request(
                "GET", "/users/me", headers: [("Authorization", "Bearer \(secondToken)")])
            #expect(profile.status == 200, "\(String(decoding: profile.body, as: UTF8.self))")
            #expect(try JSONValue(parsing: profile.body)["email"] == "ada@example.com")

            let gone = try await api.signIn("grace@example.com", app: "gone", cli: cli)
            #expect(gone.status == 200)
            let goneToken = try #require(gone.accessToken)
            #expect(try await cli.run(["apps", "remove", "gone"]).status == 0)
            #expect(try await registered().sorted() == ["demo", "second"])
            let refused = try await api.request(
                "GET", "/users/me", headers: [("Authorization", "Bearer \(goneToken)")])
            #expect(refused.status == 403)
            #expect(try await eventually(10) { api.log.contains(#""reason":"wrong_audience""#) })
            // The demo app still works beside them.
            let demo = try #require(try await api.signIn("lin@example.com", cli: cli).accessToken)
            #expect(
                try await api.request("GET", "/users/me", headers: [("Authorization", "Bearer \(demo)")]).status
                    == 200)
        }
    }
}
