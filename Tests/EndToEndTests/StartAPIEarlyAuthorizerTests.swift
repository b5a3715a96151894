import Foundation
import GatehouseJSON
import Testing

/// start-api starts each Lambda authorizer, and the JWKS route its settings name, as soon as it
/// answers: the authorizer reads its keys then (Gatehouse's own: the key file's public members,
/// as deployed it reads the published ones, with no call through the API), so the first
/// authorized request waits for no authorizer's cold start or key read.
struct StartAPIEarlyAuthorizerTests {
    let cli = GatehouseCLI()

    @Test func theAuthorizerAndItsKeysAreReadyBeforeTheFirstAuthorizedRequest() async throws {
        try await LocalAPI.with(cli: cli) { api in
            // Nothing asked for yet: the authorizer is running, and nothing else but the JWKS route.
            #expect(
                try await eventually(20) { !api.functionProcesses(excluding: ["Jwks"]).isEmpty }, "\(api.log)")
            #expect(api.functionProcesses(excluding: ["Authorizer", "Jwks"]).isEmpty)
            let code = try await cli.run(["dev", "auth-code", "--app", "demo", "--email", "ada@example.com"])
            let exchanged = try await api.request(
                "POST", "/auth/exchange", headers: [("Content-Type", "application/json")],
                body: Array(
                    #"{"code":"\#(code.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))","app":"demo"}"#.utf8
                ))
            let token = try #require(try JSONValue(parsing: exchanged.body)["accessToken"]?.stringValue)
            let profile = try await api.request("GET", "/users/me", headers: [("Authorization", "Bearer \(token)")])
            #expect(profile.status == 200)
            let line = api.log.split(separator: "\n").last { $0.hasPrefix("GET /users/me") }
            #expect(line?.hasSuffix("(GatehouseAuthorizer warm #1)") == true, "\(line ?? "")")
            // Its keys came from the key file: no fetch of them through the API.
            #expect(!api.log.contains("GET /.well-known/jwks.json"), "\(api.log)")
        }
    }
}
