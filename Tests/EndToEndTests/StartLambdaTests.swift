import Emulator
import Foundation
import GatehouseJSON
import TestServers
import Testing

/// `gatehouse start-lambda` (and `start-api --lambda-port`) driven by boto3 and the AWS CLI
/// (`Tests/Support/Lambda/invoke_lambda.py`; `.ci/run` installs both) against the real binaries.
@Suite(.serialized)
struct StartLambdaTests {
    let cli = GatehouseCLI()

    /// The port a server printed `prefix` and its address on.
    static func port(after prefix: String, in log: String) -> Int? {
        log.split(separator: "\n").first { $0.hasPrefix(prefix) }
            .flatMap { Int($0.dropFirst(prefix.count).prefix { $0.isNumber }) }
    }

    @Test func botoAndTheAWSCLIInvokeTheFunctionsByName() async throws {
        try await LocalAPI.with(template: GatehouseCLI.fixtureTemplate, cli: cli, command: "start-lambda") { lambda in
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("lambda-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            let run = try await ChildProcess.capture(
                "/usr/bin/env",
                [
                    PythonTools.python,
                    GatehouseCLI.repositoryRoot.appendingPathComponent("Tests/Support/Lambda/invoke_lambda.py").path,
                    "http://127.0.0.1:\(lambda.port)", PythonTools.awsCLI, work.path,
                ])
            guard case .exited(0) = run.termination.reason else {
                Issue.record("the boto3/AWS CLI run failed (.ci/run installs both): \(run.standardError)")
                return
            }
            let seen = try JSONValue(parsing: Array(run.standardOutput.utf8))
            let success = try #require(seen["success"])
            #expect(success["status"] == 200 && success["functionError"] == .null && success["version"] == "$LATEST")
            #expect(success["payload"] == #"{"action":"echo","n":1}"#)
            let log = try #require(success["log"]?.stringValue)
            #expect(log.hasPrefix("START RequestId: ") && log.contains(#""message":"misbehaving""#))
            #expect(log.contains("\nEND RequestId: ") && log.contains("\nREPORT RequestId: "))
            #expect(seen["byArn"]?["status"] == 200)

            let handled = try JSONValue(
                parsing: Array(try #require(seen["handledError"]?["payload"]?.stringValue).utf8))
            #expect(
                seen["handledError"]?["functionError"] == "Unhandled" && handled["errorType"] == "Misbehaving.Failure")
            #expect(seen["crash"]?["functionError"] == "Unhandled")
            #expect(seen["crash"]?["payload"]?.stringValue?.contains("Runtime.ExitError") == true)
            #expect(seen["timeout"]?["functionError"] == "Unhandled")
            #expect(seen["timeout"]?["payload"]?.stringValue?.contains("Task timed out after 1.00 seconds") == true)
            #expect(seen["event"]?["status"] == 202 && seen["event"]?["payload"] == "")
            #expect(seen["dryRun"]?["status"] == 204)
            // The Event ran in the background.
            _ = try await eventually(10) { lambda.log.contains(#""action":"exe""#) }
            #expect(lambda.log.contains(#""action":"exe""#))

            #expect(seen["unknown"]?["code"] == "ResourceNotFoundException" && seen["unknown"]?["status"] == 404)
            #expect(
                seen["unknown"]?["message"]
                    == "Function not found: arn:aws:lambda:us-east-1:123456789012:function:Nope")
            #expect(seen["otherVersion"]?["code"] == "ResourceNotFoundException")
            #expect(seen["tooLarge"]?["code"] == "RequestTooLargeException" && seen["tooLarge"]?["status"] == 413)
            #expect(seen["notJSON"]?["code"] == "InvalidRequestContentException")

            let aws = try #require(seen["cli"])
            #expect(aws["exit"] == 0 && aws["status"] == 200 && aws["version"] == "$LATEST")
            #expect(aws["payload"] == #"{"action":"echo","from":"cli"}"#)
            #expect(aws["log"]?.stringValue?.contains(#""message":"misbehaving""#) == true)
            #expect(seen["cliUnknown"]?["exit"] == 255)
            #expect(seen["cliUnknown"]?["stderr"]?.stringValue?.contains("ResourceNotFoundException") == true)
        }
    }

    /// `start-api --lambda-port`: the Invoke API beside the HTTP API, on the same instances.
    @Test func startAPIServesTheInvokeAPIOnTheSameInstances() async throws {
        try await LocalAPI.with(cli: cli, extra: ["--lambda-port", "0"]) { api in
            let lambdaPort = try #require(Self.port(after: "Lambda Invoke API on http://127.0.0.1:", in: api.log))
            // The authorizer reads its keys from the key file, so nothing starts Jwks before this.
            let viaAPI = try await api.request("GET", "/.well-known/jwks.json")
            #expect(viaAPI.status == 200)
            let event =
                #"{"version":"2.0","routeKey":"GET /.well-known/jwks.json","rawPath":"/.well-known/jwks.json","headers":{},"requestContext":{"http":{"method":"GET","path":"/.well-known/jwks.json","sourceIp":"127.0.0.1"},"requestId":"r"},"isBase64Encoded":false}"#
            let invoked = try await api.request(
                "POST", "/2015-03-31/functions/Jwks/invocations", body: Array(event.utf8), port: lambdaPort)
            #expect(invoked.status == 200)
            let answer = try JSONValue(parsing: invoked.body)
            #expect(answer["statusCode"] == 200)
            #expect(answer["body"]?.stringValue == String(decoding: viaAPI.body, as: UTF8.self))
            // One Jwks instance served both.
            #expect(api.log.contains("GET /.well-known/jwks.json 200") && !api.log.contains("Jwks cold #2"))
            #expect(api.routeProcesses(authorizer: "Authorizer").count == 1)
        }
    }
}
