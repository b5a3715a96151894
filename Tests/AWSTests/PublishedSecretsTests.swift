import AWSCalls
import Foundation
import GatehouseJSON
import LambdaRuntime
import TestServers
import Testing

@testable import AWSSecrets

/// The OTP secret from the stack's Secrets Manager secret, the OIDC client secret from the secret
/// the stack names, and the public keys' SSM parameter (written as `gatehouse keys publish`
/// writes it, read as `Jwks` reads it), against moto_server.
@Suite(.serialized)
struct PublishedSecretsTests {
    let moto = SigningKeySecretTests()

    @Test func theOTPSecretComesFromItsSecretUnlessGivenDirectly() async throws {
        let endpoint = try await MotoServer.messaging.endpoint()
        let name = "gatehouse/otp-\(UUID().uuidString.prefix(6))"
        let value = String(repeating: "aB3", count: 21) + "x"
        try await moto.create(
            "secretsmanager", target: "secretsmanager.CreateSecret",
            ["Name": .string(name), "SecretString": .string(value)], at: endpoint)
        let resolved = try await DeployedEnvironment.resolve(
            moto.environment(endpoint, ["OTP_SECRET_ARN": name]), http: SendersTests.patient)
        #expect(resolved["OTP_SECRET"] == value)
        // A local run's file (or a secret given) wins: the secret is not read at all.
        let local = moto.environment("http://127.0.0.1:1", ["OTP_SECRET_ARN": name, "OTP_SECRET_FILE": "/tmp/otp"])
        #expect(try await OTPSecretSource.resolve(local) == local)
        await #expect(throws: OTPSecretSourceError.noCredentials) {
            _ = try await OTPSecretSource.resolve(["OTP_SECRET_ARN": "x", "AWS_REGION": "us-east-1"])
        }
    }

    /// The secrets a function names are read at once, and each read keeps what it set, even where
    /// the template gives the variable empty (as it gives `OIDC_CLIENT_SECRET`).
    @Test func everySecretNamedIsReadAtOnceAndKept() async throws {
        let endpoint = try await MotoServer.messaging.endpoint()
        let suffix = UUID().uuidString.prefix(6)
        let otp = String(repeating: "aB3", count: 21) + "x"
        for (name, value) in [("gatehouse/otp-\(suffix)", otp), ("gatehouse/oidc-\(suffix)", "client-\(suffix)")] {
            try await moto.create(
                "secretsmanager", target: "secretsmanager.CreateSecret",
                ["Name": .string(name), "SecretString": .string(value)], at: endpoint)
        }
        let environment = moto.environment(
            endpoint,
            [
                "OTP_SECRET_ARN": "gatehouse/otp-\(suffix)", "OIDC_CLIENT_SECRET_ARN": "gatehouse/oidc-\(suffix)",
                "OIDC_CLIENT_SECRET": "", "OTP_SECRET_FILE": "",
            ])
        let start = DeployedEnvironment.starting(environment, http: SendersTests.patient)
        #expect(!start.isComplete)
        let fetch = try #require(start.fetch)
        let resolved = try await fetch(environment)
        #expect(resolved["OTP_SECRET"] == otp && resolved["OIDC_CLIENT_SECRET"] == "client-\(suffix)")
        // Nothing named: nothing to fetch, the handler is built at initialisation.
        #expect(DeployedEnvironment.starting(moto.environment(endpoint, [:])).isComplete)
    }

    @Test func theOIDCClientSecretComesFromItsSecretUnlessGivenDirectly() async throws {
        let endpoint = try await MotoServer.messaging.endpoint()
        let name = "gatehouse/oidc-\(UUID().uuidString.prefix(6))"
        let value = "client-secret-\(UUID().uuidString)"
        try await moto.create(
            "secretsmanager", target: "secretsmanager.CreateSecret",
            ["Name": .string(name), "SecretString": .string(value)], at: endpoint)
        let resolved = try await DeployedEnvironment.resolve(
            moto.environment(endpoint, ["OIDC_CLIENT_SECRET_ARN": name]), http: SendersTests.patient)
        #expect(resolved["OIDC_CLIENT_SECRET"] == value)
        // A secret given directly (start-api's dev provider's) wins: the secret is not read at all.
        let local = moto.environment(
            "http://127.0.0.1:1", ["OIDC_CLIENT_SECRET_ARN": name, "OIDC_CLIENT_SECRET": "dev-secret"])
        #expect(try await OIDCClientSecretSource.resolve(local) == local)
        // No ARN (a public client, or Authorize, which never redeems a code): nothing read, no secret.
        let none = moto.environment("http://127.0.0.1:1", ["OIDC_CLIENT_SECRET_ARN": ""])
        #expect(try await DeployedEnvironment.resolve(none)["OIDC_CLIENT_SECRET"] == nil)
        await #expect(throws: OIDCClientSecretSourceError.noCredentials) {
            _ = try await OIDCClientSecretSource.resolve(["OIDC_CLIENT_SECRET_ARN": "x", "AWS_REGION": "us-east-1"])
        }
        // A secret that is not there is named by AWS's code; no error says a value.
        do {
            _ = try await OIDCClientSecretSource.resolve(
                moto.environment(endpoint, ["OIDC_CLIENT_SECRET_ARN": "no-such-secret"]), http: SendersTests.patient)
            Issue.record("a missing secret must fail the cold start")
        } catch let error as AWSCallError {
            #expect(error.service == "secretsmanager" && error.code == "ResourceNotFoundException")
            #expect(!"\(error)".contains(value))
        }
        for error in [OIDCClientSecretSourceError.noCredentials, .empty] {
            #expect("\(error)".contains("OIDC_CLIENT_SECRET_ARN"))
        }
    }

    @Test func publishedPublicKeysAreReadBack() async throws {
        let endpoint = try await MotoServer.messaging.endpoint()
        let name = "gatehouse-public-keys-\(UUID().uuidString.prefix(6))"
        let environment = moto.environment(endpoint, [:])
        try await PublicKeysParameter.publish(
            #"{"keys":[{"kid":"one"}]}"#, name: name, environment: environment, http: SendersTests.patient)
        // Published again (a rotation): the value is replaced.
        try await PublicKeysParameter.publish(
            #"{"keys":[{"kid":"two"}]}"#, name: name, environment: environment, http: SendersTests.patient)
        let read = try await PublicKeysParameter.resolve(
            environment.merging(["PUBLIC_KEYS_PARAMETER": name]) { $1 }, http: SendersTests.patient)
        #expect(read["PUBLIC_KEYS"] == #"{"keys":[{"kid":"two"}]}"#)
        #expect(try await PublicKeysParameter.resolve(environment) == environment, "no parameter named, none read")
        // A local run's key file wins over the parameter, which is not read at all.
        let local = moto.environment(
            "http://127.0.0.1:1", ["PUBLIC_KEYS_PARAMETER": name, "SIGNING_KEYS_FILE": "/tmp/keys.json"])
        #expect(try await PublicKeysParameter.resolve(local) == local)
        #expect(PublicKeysParameter.name(stack: "auth-prod") == "/gatehouse/auth-prod/public-keys")
    }
}
