import AWSCalls
import Foundation
import GatehouseJSON
import TestServers
import Testing

@testable import AWSSecrets

/// The OTP secret from the stack's Secrets Manager secret, and the public keys' SSM parameter
/// (written as `gatehouse keys publish` writes it, read as `Jwks` reads it), against moto_server.
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
    }
}
