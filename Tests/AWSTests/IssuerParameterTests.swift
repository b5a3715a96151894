import AWSCalls
import Foundation
import GatehouseJSON
import TestServers
import Testing

@testable import AWSSecrets

/// The issuer read from the SSM parameter CloudFormation writes from the API's URL, against
/// moto_server: only when `ISSUER` is empty, and refused by name when it is not a URL.
@Suite(.serialized)
struct IssuerParameterTests {
    let moto = SigningKeySecretTests()

    func parameter(_ value: String, at endpoint: String) async throws -> String {
        let name = "/gatehouse/stack-\(UUID().uuidString.prefix(6))/issuer"
        try await moto.create(
            "ssm", target: "AmazonSSM.PutParameter",
            ["Name": .string(name), "Value": .string(value), "Type": "String"], at: endpoint)
        return name
    }

    @Test func anEmptyIssuerIsTheParametersURL() async throws {
        let endpoint = try await MotoServer.messaging.endpoint()
        let name = try await parameter("https://abc123.execute-api.us-east-1.amazonaws.com/", at: endpoint)
        let resolved = try await DeployedEnvironment.resolve(
            moto.environment(endpoint, ["ISSUER": "", "ISSUER_PARAMETER": name]), http: SendersTests.patient)
        #expect(resolved["ISSUER"] == "https://abc123.execute-api.us-east-1.amazonaws.com")

        // A custom domain (or a local run's address) given in ISSUER wins: nothing is read.
        let given = moto.environment(
            "http://127.0.0.1:1", ["ISSUER": "https://auth.example.com", "ISSUER_PARAMETER": name])
        #expect(try await IssuerParameter.resolve(given) == given)
        let unnamed = moto.environment("http://127.0.0.1:1", ["ISSUER": ""])
        #expect(try await IssuerParameter.resolve(unnamed) == unnamed)
    }

    @Test func aParameterThatIsNoURLOrNotThereFailsTheColdStart() async throws {
        let endpoint = try await MotoServer.messaging.endpoint()
        let name = try await parameter("abc123", at: endpoint)
        await #expect(throws: IssuerParameterError.notAURL(name)) {
            _ = try await IssuerParameter.resolve(
                moto.environment(endpoint, ["ISSUER_PARAMETER": name]), http: SendersTests.patient)
        }
        do {
            _ = try await IssuerParameter.resolve(
                moto.environment(endpoint, ["ISSUER_PARAMETER": "/gatehouse/none/issuer"]), http: SendersTests.patient)
            Issue.record("a missing parameter must fail the cold start")
        } catch let error as AWSCallError {
            #expect(error.service == "ssm" && error.code == "ParameterNotFound")
        }
        await #expect(throws: IssuerParameterError.noCredentials) {
            _ = try await IssuerParameter.resolve(["ISSUER_PARAMETER": "/x", "AWS_REGION": "us-east-1"])
        }
    }
}
