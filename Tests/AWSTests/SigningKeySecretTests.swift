import AWSCalls
import AWSSigning
import Foundation
import GatehouseJSON
import OutboundHTTP
import TestServers
import Testing

@testable import AWSSecrets

/// The signing keys read from Secrets Manager or an SSM SecureString at the cold start, against
/// moto_server: put in `SIGNING_KEYS` for the function's services, and refused by name, not by
/// value, when missing.
@Suite(.serialized)
struct SigningKeySecretTests {
    static let keys = #"{"keys":[{"kty":"RSA","kid":"test"}]}"#

    func environment(_ endpoint: String, _ extra: [String: String]) -> [String: String] {
        [
            "AWS_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
            "AWS_ENDPOINT_URL_SECRETS_MANAGER": endpoint, "AWS_ENDPOINT_URL_SSM": endpoint,
        ].merging(extra) { $1 }
    }

    /// An operator's call to make the secret or parameter (Secrets Manager and SSM speak JSON 1.1).
    func create(_ service: String, target: String, _ body: JSONValue, at endpoint: String) async throws {
        _ = try await AWSCall(
            service: service, region: "us-east-1", endpoint: endpoint,
            credentials: AWSCredentials(accessKeyID: "testing", secretAccessKey: "testing"), http: SendersTests.patient
        ).post(
            operation: target, path: "/",
            headers: [
                (name: "content-type", value: "application/x-amz-json-1.1"), (name: "x-amz-target", value: target),
            ],
            body: body.serializedBytes)
    }

    @Test func aSecretOrAParameterBecomesSigningKeys() async throws {
        let endpoint = try await MotoServer.messaging.endpoint()
        let name = "gatehouse/keys-\(UUID().uuidString.prefix(6))"
        try await create(
            "secretsmanager", target: "secretsmanager.CreateSecret",
            ["Name": .string(name), "SecretString": .string(Self.keys)], at: endpoint)
        let fromSecret = try await SigningKeySecret.resolve(
            environment(endpoint, ["SIGNING_KEYS_SECRET": name]), http: SendersTests.patient)
        #expect(fromSecret["SIGNING_KEYS"] == Self.keys)

        let parameter = "/gatehouse/keys-\(UUID().uuidString.prefix(6))"
        try await create(
            "ssm", target: "AmazonSSM.PutParameter",
            ["Name": .string(parameter), "Value": .string(Self.keys), "Type": "SecureString"], at: endpoint)
        let fromParameter = try await SigningKeySecret.resolve(
            environment(endpoint, ["SIGNING_KEYS_PARAMETER": parameter]), http: SendersTests.patient)
        #expect(fromParameter["SIGNING_KEYS"] == Self.keys)

        let untouched = environment(endpoint, ["SIGNING_KEYS_FILE": "/tmp/keys.json"])
        #expect(try await SigningKeySecret.resolve(untouched) == untouched)
        // A key file given (a local run) wins over the secret, which is not read at all.
        let local = environment(
            "http://127.0.0.1:1", ["SIGNING_KEYS_FILE": "/tmp/keys.json", "SIGNING_KEYS_SECRET": "arn:aws:x"])
        #expect(try await SigningKeySecret.resolve(local) == local)
    }

    @Test func aMissingSecretIsNamedByAWSsCode() async throws {
        let endpoint = try await MotoServer.messaging.endpoint()
        do {
            _ = try await SigningKeySecret.resolve(
                environment(endpoint, ["SIGNING_KEYS_SECRET": "no-such-secret"]), http: SendersTests.patient)
            Issue.record("a missing secret must fail the cold start")
        } catch let error as AWSCallError {
            #expect(error.service == "secretsmanager" && error.code == "ResourceNotFoundException")
        }
        await #expect(throws: SigningKeySecretError.noCredentials) {
            _ = try await SigningKeySecret.resolve(["SIGNING_KEYS_SECRET": "x", "AWS_REGION": "us-east-1"])
        }
    }
}
