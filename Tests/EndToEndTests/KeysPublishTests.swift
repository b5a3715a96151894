import Emulator
import Foundation
import GatehouseJSON
import TestServers
import Testing

/// `gatehouse keys publish` writes the public keys to the stack's SSM parameter (moto_server),
/// `/gatehouse/STACK/public-keys` as the template names it, and the `Jwks` binary serves that
/// parameter, as deployed, without reading the private set.
@Suite(.serialized)
struct KeysPublishTests {
    let cli = GatehouseCLI()

    @Test func jwksServesThePublishedKeysAndNeverReadsThePrivateSet() async throws {
        let endpoint = try await MotoServer.messaging.endpoint()
        // moto_server's first SSM call can take over the 5 s default while the suite runs beside it.
        let aws = [
            "AWS_ENDPOINT_URL_SSM": endpoint, "AWS_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "testing",
            "AWS_SECRET_ACCESS_KEY": "testing", "GATEHOUSE_OUTBOUND_TIMEOUT_SECONDS": "30",
        ]
        #expect(try await cli.run(["keys", "generate"]).status == 0)
        // The parameter is named after the stack: one stack's publish never replaces another's keys.
        let stack = "auth-\(UUID().uuidString.prefix(6))"
        let name = "/gatehouse/\(stack)/public-keys"
        let published = try await cli.run(["keys", "publish", "--stack-name", stack], environment: aws)
        #expect(published.status == 0, "stderr: \(published.stderr)")
        let keyFile = try JSONValue(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: cli.keysFile))))
        let kid = try #require(keyFile["keys"]?.arrayValue?.first?["kid"]?.stringValue)
        #expect(published.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == kid)
        // The parameter holds the public half only, as a plain String.
        let read = try await ChildProcess.capture(
            "/usr/bin/env",
            [
                PythonTools.python, "-c",
                "import boto3; p = boto3.client('ssm', endpoint_url='\(endpoint)', region_name='us-east-1', "
                    + "aws_access_key_id='x', aws_secret_access_key='y').get_parameter(Name='\(name)')['Parameter']; "
                    + "print(p['Type']); print(p['Value'])",
            ])
        #expect(read.termination.reason == .exited(0), "\(read.standardError)")
        let lines = read.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "String")
        let stored = try JSONValue(parsing: Array((lines.dropFirst().first ?? "").utf8))
        #expect(stored["keys"]?.arrayValue?.map { $0["kid"] } == [.string(kid)])
        #expect(stored["keys"]?.arrayValue?.allSatisfy { $0["d"] == nil && $0["p"] == nil } == true)

        // A rotation not yet published: the file has two keys, the parameter one.
        #expect(try await cli.run(["keys", "rotate"]).status == 0)
        // Jwks is given the parameter and, as deployed, no key file (a local run's file would win).
        let envVars = FileManager.default.temporaryDirectory.appendingPathComponent("env-\(UUID().uuidString).json")
        let jwks = [
            "PUBLIC_KEYS_PARAMETER": name, "AWS_ENDPOINT_URL_SSM": endpoint,
            "SIGNING_KEYS_FILE": "", "GATEHOUSE_OUTBOUND_TIMEOUT_SECONDS": "30",
        ]
        try JSONEncoder().encode(["Jwks": jwks]).write(to: envVars)
        let run = try await cli.run([
            "invoke", "Jwks", "--event", "events/jwks.json", "--env-vars", envVars.path, "--no-build",
        ])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let body = try #require(try run.json()["body"]?.stringValue)
        let keys = try #require(try JSONValue(parsing: Array(body.utf8))["keys"]?.arrayValue)
        #expect(keys.map { $0["kid"] } == [.string(kid)])
        #expect(keys.allSatisfy { $0["d"] == nil && $0["n"] != nil })
    }

    /// The parameter is the stack's unless named outright: no default that two stacks would share.
    @Test func publishNamesTheStackOrTheParameter() async throws {
        let aws = ["AWS_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing"]
        for (arguments, message) in [
            ([String](), "--stack-name STACK"), (["--stack-name", "a", "--parameter", "b"], "not both"),
            (["--stack-name", "dev/../prod"], "is not a CloudFormation stack name"),
        ] {
            let run = try await cli.run(["keys", "publish"] + arguments, environment: aws)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
    }
}
