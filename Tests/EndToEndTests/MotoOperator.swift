import Emulator
import Foundation
import TestServers
import Testing

/// What an operator makes in moto_server before a deploy runs, with boto3 (the AWS SDK an
/// operator's script would use): a Secrets Manager secret, an SSM parameter.
enum MotoOperator {
    /// Makes the secret `name` holding `value`; its ARN.
    static func createSecret(_ name: String, _ value: String, at endpoint: String) async throws -> String {
        try await boto3(
            "secretsmanager", "print(client.create_secret(Name=sys.argv[1], SecretString=sys.argv[2])['ARN'])",
            [name, value], at: endpoint)
    }

    /// Makes the plain `String` parameter `name` holding `value`.
    static func putParameter(_ name: String, _ value: String, at endpoint: String) async throws {
        _ = try await boto3(
            "ssm", "client.put_parameter(Name=sys.argv[1], Value=sys.argv[2], Type='String')", [name, value],
            at: endpoint)
    }

    /// Runs `statement` with `client`, boto3's client of `service` at `endpoint`; its output.
    private static func boto3(
        _ service: String, _ statement: String, _ arguments: [String], at endpoint: String
    ) async throws -> String {
        let script =
            "import sys, boto3; client = boto3.client('\(service)', endpoint_url='\(endpoint)', "
            + "region_name='us-east-1', aws_access_key_id='x', aws_secret_access_key='y'); \(statement)"
        let run = try await ChildProcess.capture("/usr/bin/env", [PythonTools.python, "-c", script] + arguments)
        #expect(run.termination.reason == .exited(0), "\(run.standardError)")
        return run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
