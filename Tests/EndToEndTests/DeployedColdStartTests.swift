import Foundation
import GatehouseJSON
import JOSE
import TestServers
import Testing

/// The real binaries started as deployed (no `ISSUER`, no key file: the secret and the public
/// keys' parameter the template names), with moto_server behind a recording stand-in for
/// Secrets Manager and SSM: what each cold start calls out for.
@Suite(.serialized)
struct DeployedColdStartTests {
    let cli = GatehouseCLI()
    /// The issuer API Gateway's URL for the sample events' API (`abc123def4`) makes.
    static let issuer = "https://abc123def4.execute-api.us-east-1.amazonaws.com"

    /// The keys' secret and the public keys' parameter, made as a deploy makes them; their names.
    func publish(at moto: String) async throws -> (secret: String, parameter: String) {
        let jwks = try await cli.run(["invoke", "Jwks", "--no-build", "--event", "events/jwks.json"])
        let document = try #require(try jwks.json()["body"]?.stringValue)
        let suffix = UUID().uuidString.prefix(8).lowercased()
        let secret = "gatehouse/keys-\(suffix)"
        let parameter = "/gatehouse/stack-\(suffix)/public-keys"
        _ = try await MotoOperator.createSecret(
            secret, try String(contentsOfFile: cli.keysFile, encoding: .utf8), at: moto)
        try await MotoOperator.putParameter(parameter, document, at: moto)
        return (secret, parameter)
    }

    /// A deployed environment for `function`: the stand-in as both services' endpoint.
    func deployed(_ function: String, _ variables: [String: String], standIn: RecordingServer) throws -> String {
        let environment = [
            "ISSUER": "", "SIGNING_KEYS_FILE": "", "AWS_ENDPOINT_URL_SECRETS_MANAGER": standIn.baseURL,
            "AWS_ENDPOINT_URL_SSM": standIn.baseURL,
        ].merging(variables) { $1 }
        try FileManager.default.createDirectory(at: cli.stateDirectory, withIntermediateDirectories: true)
        let path = cli.stateDirectory.appendingPathComponent("env-\(function).json")
        try Data(JSONValue.object([function: .object(environment.mapValues(JSONValue.string))]).serialized.utf8)
            .write(to: path)
        return path.path
    }

    @Test func theIssuerCostsNoCallAndTheAuthorizerOneForItsKeys() async throws {
        let minted = try await cli.run(["dev", "auth-code", "--app", "demo", "--email", "ada@example.com"])
        let code = minted.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let moto = try await MotoServer.messaging.endpoint()
        let (secret, parameter) = try await publish(at: moto)
        let standIn = try await RecordingServer.start(forwardingTo: moto)
        defer { Task { await standIn.stop() } }

        // Exchange: one read, its signing keys' secret; the issuer is the event's API's URL.
        let exchange = try deployed("Exchange", ["SIGNING_KEYS_SECRET": secret], standIn: standIn)
        let event = try InvokeSessionTests.event("/auth/exchange", body: #"{"code":"\#(code)","app":"demo"}"#)
        let run = try await cli.run(
            ["invoke", "Exchange", "--no-build", "--event", "-", "--env-vars", exchange], stdin: event)
        let response = try run.json()
        #expect(response["statusCode"] == 200, "\(run.stderr)")
        let body = try JSONValue(parsing: Array(try #require(response["body"]?.stringValue).utf8))
        let token = try #require(body["accessToken"]?.stringValue)
        let claims = try JSONValue(parsing: try #require(Base64URL.decode(String(token.split(separator: ".")[1]))))
        #expect(claims["iss"]?.stringValue == Self.issuer)
        #expect(standIn.requests.map { $0.header("x-amz-target") } == ["secretsmanager.GetSecretValue"])

        // The Authorizer: one read, the public keys' parameter; the token's issuer is its API's.
        standIn.clear()
        let authorizer = try deployed("Authorizer", ["PUBLIC_KEYS_PARAMETER": parameter], standIn: standIn)
        let allowed = try await authorize(token, apiID: "abc123def4", envVars: authorizer)
        #expect(allowed["isAuthorized"] == true, "\(allowed)")
        let calls = standIn.requests
        #expect(calls.map { $0.header("x-amz-target") } == ["AmazonSSM.GetParameter"])
        #expect(try calls.first.map { try JSONValue(parsing: $0.body)["Name"]?.stringValue } == parameter)
        // The same token through another API is another issuer's: refused (that cold start, too,
        // reads only the keys).
        standIn.clear()
        let other = try await authorize(token, apiID: "zzz999yyy8", envVars: authorizer)
        #expect(other["isAuthorized"] == false, "\(other)")
        #expect(standIn.requests.map { $0.header("x-amz-target") } == ["AmazonSSM.GetParameter"])
    }

    /// An Authorizer given its issuer (`JWT_ISSUER`: it guards another issuer's tokens, here a
    /// local Gatehouse's, in front of another API) builds none from its events and does not take
    /// the published keys, which are the deployment's own: it fetches that issuer's JWKS.
    @Test func anAuthorizerGivenItsIssuerBuildsNoneAndTakesNoPublishedKeys() async throws {
        let minted = try await cli.run(["dev", "auth-code", "--app", "demo", "--email", "grace@example.com"])
        let code = minted.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let event = try InvokeSessionTests.event("/auth/exchange", body: #"{"code":"\#(code)","app":"demo"}"#)
        let exchanged = try await cli.run(["invoke", "Exchange", "--no-build", "--event", "-"], stdin: event)
        let body = try JSONValue(parsing: Array(try #require(try exchanged.json()["body"]?.stringValue).utf8))
        let token = try #require(body["accessToken"]?.stringValue)
        let jwks = try await cli.run(["invoke", "Jwks", "--no-build", "--event", "events/jwks.json"])
        let document = try #require(try jwks.json()["body"]?.stringValue)
        let issuerKeys = try await RecordingServer.start { _ in (200, document) }
        let moto = try await MotoServer.messaging.endpoint()
        let standIn = try await RecordingServer.start(forwardingTo: moto)
        defer {
            Task {
                await standIn.stop()
                await issuerKeys.stop()
            }
        }
        let envVars = try deployed(
            "Authorizer",
            [
                "JWT_ISSUER": "http://127.0.0.1:3000", "JWKS_URL": "\(issuerKeys.baseURL)/.well-known/jwks.json",
                "PUBLIC_KEYS_PARAMETER": "/gatehouse/not-read/public-keys",
            ], standIn: standIn)
        let allowed = try await authorize(token, apiID: "zzz999yyy8", envVars: envVars)
        #expect(allowed["isAuthorized"] == true, "\(allowed)")
        #expect(standIn.requests.isEmpty, "the published keys are not read")
        #expect(issuerKeys.requests.map(\.target) == ["/.well-known/jwks.json"])
    }

    /// An event that names no API (a direct invoke) has no issuer to build: refused by name,
    /// and nothing is read for it.
    @Test func anEventWithoutAnAPIIsRefusedByName() async throws {
        let moto = try await MotoServer.messaging.endpoint()
        let standIn = try await RecordingServer.start(forwardingTo: moto)
        defer { Task { await standIn.stop() } }
        let envVars = try deployed("UserProfile", [:], standIn: standIn)
        let run = try await cli.run(
            ["invoke", "UserProfile", "--no-build", "--event", "-", "--env-vars", envVars],
            stdin: Data(#"{"version":"2.0","rawPath":"/users/me","requestContext":{"http":{"method":"GET"}}}"#.utf8))
        #expect(run.stdoutText.contains("Runtime.NoIssuer"), "\(run.stdoutText) \(run.stderr)")
        #expect(standIn.requests.isEmpty)
    }

    /// SupabaseSignup starts no session but an anonymous user's: its cold start reads the
    /// signing keys only while anonymous sign-in is on (`ANONYMOUS_USERS`), though the template
    /// names the secret either way.
    @Test func supabaseSignupReadsTheSigningKeysOnlyWithAnonymousUsersOn() async throws {
        let moto = try await MotoServer.messaging.endpoint()
        let (secret, _) = try await publish(at: moto)
        let key = try await SupabaseClientTests.apiKey(cli)
        let standIn = try await RecordingServer.start(forwardingTo: moto)
        defer { Task { await standIn.stop() } }
        var event = try JSONValue(parsing: Array(try InvokeSessionTests.event("/auth/v1/signup", body: "{}")))
        if case .object(var members) = event, case .object(var headers)? = members["headers"] {
            headers["apikey"] = .string(key)
            members["headers"] = .object(headers)
            event = .object(members)
        }
        for (setting, status, reads) in [("disabled", 422, 0), ("enabled", 200, 1)] {
            standIn.clear()
            let envVars = try deployed(
                "SupabaseSignup", ["SIGNING_KEYS_SECRET": secret, "ANONYMOUS_USERS": setting], standIn: standIn)
            let run = try await cli.run(
                ["invoke", "SupabaseSignup", "--no-build", "--event", "-", "--env-vars", envVars],
                stdin: Data(event.serialized.utf8))
            #expect(
                try run.json()["statusCode"] == .number(Double(status)), "\(setting): \(run.stdoutText) \(run.stderr)")
            let keyReads = try standIn.requests.filter {
                try JSONValue(parsing: $0.body)["SecretId"] == .string(secret)
            }
            #expect(keyReads.count == reads, "\(setting)")
        }
    }

    /// The Authorizer's answer to `token` in the sample event, as if it came through `apiID`.
    func authorize(_ token: String, apiID: String, envVars: String) async throws -> JSONValue {
        var event = try JSONValue(
            parsing: Array(
                try Data(contentsOf: GatehouseCLI.repositoryRoot.appendingPathComponent("events/authorizer-v2.json"))))
        guard case .object(var members) = event, case .object(var context)? = members["requestContext"],
            case .object(var headers)? = members["headers"]
        else { throw DeployedColdStartError.sampleEvent }
        context["apiId"] = .string(apiID)
        headers["authorization"] = .string("Bearer \(token)")
        members["requestContext"] = .object(context)
        members["headers"] = .object(headers)
        members["identitySource"] = [.string("Bearer \(token)")]
        event = .object(members)
        let run = try await cli.run(
            ["invoke", "Authorizer", "--no-build", "--event", "-", "--env-vars", envVars],
            stdin: Data(event.serialized.utf8))
        #expect(run.status == 0, "\(run.stderr)")
        return try run.json()
    }
}

enum DeployedColdStartError: Error {
    case sampleEvent
}
