import Emulator
import Foundation
import GatehouseJSON
import Testing

/// The access-token hook through start-api: the template's `AccessTokenHook` names a function of
/// the template (a Python custom runtime, `Tests/Fixtures/TokenHook`), which the functions invoke
/// through the emulator's Lambda Invoke API. Its claims are in the tokens a sign-in gets (and the
/// authorizer accepts them); a hook that fails, or changes a reserved claim, fails the sign-in.
@Suite(.serialized)
struct AccessTokenHookEndToEndTests {
    let cli = GatehouseCLI()

    /// The project's template with the hook's function beside its own, under the package's
    /// `.build` (where the emulator finds the Package.swift the other functions are built from).
    static func template() throws -> String {
        try GatehouseCLI.projectTemplate { resources in
            let hook = GatehouseCLI.repositoryRoot.appendingPathComponent("Tests/Fixtures/TokenHook").path
            resources["TokenHook"] = [
                "Type": "AWS::Serverless::Function",
                "Properties": [
                    "CodeUri": .string(hook), "Runtime": "provided.al2023", "Handler": "bootstrap", "Timeout": 5,
                ],
            ]
        }
    }

    /// The claims of `token`, read without checking it (the authorizer checks it).
    static func claims(_ token: String) throws -> JSONValue {
        let parts = token.split(separator: ".")
        var payload = String(try #require(parts.count == 3 ? parts[1] : nil))
            .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while payload.count % 4 != 0 { payload += "=" }
        return try JSONValue(parsing: Array(try #require(Data(base64Encoded: payload))))
    }

    @Test func aSignInsTokenCarriesTheHooksClaimAndAFailingHookFailsItClosed() async throws {
        let overrides = ["--parameter-overrides", "AccessTokenHook=TokenHook", "AnonymousUsers=enabled"]
        try await LocalAPI.with(template: try Self.template(), cli: cli, extra: overrides) { api in
            #expect(api.log.contains("Access-token hook TokenHook on http://127.0.0.1:"), "\(api.log)")
            let (status, token) = try await api.signIn("ada@example.com", cli: cli)
            #expect(status == 200, "\(api.log.suffix(3000))")
            let claims = try Self.claims(try #require(token))
            #expect(claims["tier"] == "gold" && claims["hooked_by"] == "otp")
            #expect(claims["hooked_user"] == claims["sub"] && claims["aud"] == "demo")
            // The authorizer accepts the hook's token: it is Gatehouse's, signed after the hook.
            let profile = try await api.request(
                "GET", "/users/me", headers: [("Authorization", "Bearer \(try #require(token))")])
            #expect(profile.status == 200, "\(String(decoding: profile.body, as: UTF8.self))")

            let failed = try await api.signIn("fail-ada@example.com", cli: cli)
            #expect(failed.status == 502 && failed.accessToken == nil)
            let reserved = try await api.signIn("reserved-ada@example.com", cli: cli)
            #expect(reserved.status == 502 && reserved.accessToken == nil)
            // Supabase's routes map the failure to supabase/auth's error; the function error's
            // message, which repeats the claims, reaches no client.
            let key = try await SupabaseClientTests.apiKey(cli)
            let headers = [
                ("apikey", key), ("Content-Type", "application/json"), ("X-Supabase-Api-Version", "2024-01-01"),
            ]
            let anonymous = try await api.request(
                "POST", "/auth/v1/signup", headers: headers, body: Array(#"{"data": {"hook": "fail"}}"#.utf8))
            let refusal = try JSONValue(parsing: anonymous.body)
            #expect(anonymous.status == 500 && refusal["code"] == "unexpected_failure", "\(refusal)")
            #expect(refusal["access_token"] == nil && !refusal.serialized.contains("refusing claims"))
            let signedIn = try await api.request("POST", "/auth/v1/signup", headers: headers, body: Array("{}".utf8))
            let session = try JSONValue(parsing: signedIn.body)
            let anonymousClaims = try Self.claims(try #require(session["access_token"]?.stringValue))
            #expect(anonymousClaims["tier"] == "gold" && anonymousClaims["hooked_by"] == "anonymous")
        }
    }

    /// An exchange's HTTP API event for a fresh code of `email`'s.
    func exchangeEvent(_ email: String) async throws -> Data {
        let mint = try await cli.run(["dev", "auth-code", "--app", "demo", "--email", email])
        let code = mint.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        return try InvokeSessionTests.event("/auth/exchange", body: #"{"code":"\#(code)","app":"demo"}"#)
    }

    /// The access token of an exchange's response (a Lambda proxy answer); nil without one.
    static func accessToken(_ response: JSONValue) throws -> String? {
        let body = try JSONValue(parsing: Array(try #require(response["body"]?.stringValue).utf8))
        return body["accessToken"]?.stringValue
    }

    @Test func invokeRunsTheHookThroughAnInvokeAPIOfItsOwn() async throws {
        let template = try Self.template()
        let base = ["invoke", "Exchange", "--no-build", "--template", template, "--event", "-"]
        let run = try await cli.run(
            base + ["--parameter-overrides", "AccessTokenHook=TokenHook"],
            stdin: try await exchangeEvent("ada@example.com"))
        #expect(
            run.status == 0 && run.stderr.contains("Access-token hook TokenHook on http://127.0.0.1:"), "\(run.stderr)")
        #expect(try Self.claims(try #require(try Self.accessToken(run.json())))["tier"] == "gold")
        // Without the parameter, the same template issues Gatehouse's claims alone.
        let plain = try await cli.run(base, stdin: try await exchangeEvent("ada@example.com"))
        #expect(!plain.stderr.contains("Access-token hook"))
        #expect(try Self.claims(try #require(try Self.accessToken(plain.json())))["tier"] == nil)
    }

    @Test func startLambdaServesTheHookToTheFunctionsItRuns() async throws {
        try await LocalAPI.with(
            template: try Self.template(), cli: cli, command: "start-lambda",
            extra: ["--parameter-overrides", "AccessTokenHook=TokenHook"]
        ) { api in
            let ok = try await api.request(
                "POST", "/2015-03-31/functions/Exchange/invocations",
                body: Array(try await exchangeEvent("ada@example.com")))
            let response = try JSONValue(parsing: ok.body)
            #expect(response["statusCode"] == 200, "\(response)")
            #expect(try Self.claims(try #require(try Self.accessToken(response)))["tier"] == "gold")
            let failed = try await api.request(
                "POST", "/2015-03-31/functions/Exchange/invocations",
                body: Array(try await exchangeEvent("fail-ada@example.com")))
            let refusal = try JSONValue(parsing: failed.body)
            let token = try Self.accessToken(refusal)
            #expect(refusal["statusCode"] == 502 && token == nil)
        }
    }
}
