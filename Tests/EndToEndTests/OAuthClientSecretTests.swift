import Emulator
import Foundation
import GatehouseJSON
import TestServers
import Testing

/// Deployed, `OAuthCallback` reads the OIDC client secret at its cold start from the Secrets
/// Manager secret `OIDC_CLIENT_SECRET_ARN` names (moto_server here), and presents it when it
/// redeems a code; the secret is in no log line.
@Suite(.serialized)
struct OAuthClientSecretTests {
    let cli = GatehouseCLI()

    /// Makes a secret whose string is `value`, as an operator would; its ARN.
    func createSecret(_ value: String, at endpoint: String) async throws -> String {
        try await MotoOperator.createSecret(
            "gatehouse/oidc-client-secret-\(UUID().uuidString.prefix(6))", value, at: endpoint)
    }

    @Test func theCallbackPresentsTheSecretItReadFromSecretsManager() async throws {
        let endpoint = try await MotoServer.messaging.endpoint()
        let secret = "oidcSecret" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let arn = try await createSecret(secret, at: endpoint)
        #expect(arn.hasPrefix("arn:aws:secretsmanager:us-east-1:"))
        let provider = try await TestOIDCProvider.start()
        defer { Task { await provider.stop() } }
        provider.requireClientSecret(secret)
        // As deployed: the callback is given the secret's ARN, not the secret (start-api's own
        // dev secret, OIDC_CLIENT_SECRET, emptied), and Authorize neither.
        let callback = provider.environment.merging([
            "OIDC_CLIENT_SECRET": "", "OIDC_CLIENT_SECRET_ARN": arn, "AWS_ENDPOINT_URL_SECRETS_MANAGER": endpoint,
            "GATEHOUSE_OUTBOUND_TIMEOUT_SECONDS": "30",
        ]) { $1 }
        let variables = ["Authorize": provider.environment, "OAuthCallback": callback]
        let flows = OAuthFlowTests()
        try await LocalAPI.with(cli: cli, variables: variables) { api in
            let claims: [String: JSONValue] = [
                "sub": "google-secret", "email": "ada@example.com", "email_verified": true,
            ]
            let flow = try await flows.start(api)
            let redirect = try #require(flow.query("redirect_uri"))
            provider.issue(
                "code-1", challenge: try #require(flow.query("code_challenge")), redirectURI: redirect, claims: claims)
            let done = try await flows.callback(api, "code=code-1&state=\(flow.state)", cookie: flow.cookieHeader)
            #expect(
                done.location?.hasPrefix("http://127.0.0.1:\(api.port)/app/auth/callback?code=") == true, "\(api.log)")

            // A provider that wants another secret refuses the same client: the secret was what let it in.
            provider.requireClientSecret("not-the-secret")
            let second = try await flows.start(api)
            provider.issue(
                "code-2", challenge: try #require(second.query("code_challenge")), redirectURI: redirect,
                claims: claims)
            let refused = try await flows.callback(
                api, "code=code-2&state=\(second.state)", cookie: second.cookieHeader)
            #expect(refused.location == "http://127.0.0.1:\(api.port)/app/auth/callback?error=oauth_failed")
            #expect(!api.log.contains(secret), "the client secret is in no log line")
        }
    }

    @Test func aMissingSecretFailsTheColdStartWithoutAValue() async throws {
        let endpoint = try await MotoServer.messaging.endpoint()
        let provider = try await TestOIDCProvider.start()
        defer { Task { await provider.stop() } }
        let arn = "arn:aws:secretsmanager:us-east-1:123456789012:secret:gatehouse/no-such-secret"
        let callback = provider.environment.merging([
            "OIDC_CLIENT_SECRET": "", "OIDC_CLIENT_SECRET_ARN": arn, "AWS_ENDPOINT_URL_SECRETS_MANAGER": endpoint,
            "GATEHOUSE_OUTBOUND_TIMEOUT_SECONDS": "30",
        ]) { $1 }
        try await LocalAPI.with(cli: cli, variables: ["OAuthCallback": callback]) { api in
            let answer = try await api.request("GET", "/auth/callback?code=x&state=y")
            #expect(answer.status >= 500)
            // The start's failure (on the first event: the secret is read while the runtime waits
            // for it) names the error's type (AWS's code is in the unit tests), no value.
            // The function's log reaches start-api's on its own pipe, maybe after the answer.
            #expect(
                try await eventually(20) {
                    api.log.contains(
                        #""message":"initialisation failed on the first event","errorType":"AWSCallError""#)
                }, "\(api.log)")
        }
    }
}
