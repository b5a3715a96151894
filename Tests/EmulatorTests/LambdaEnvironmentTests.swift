import Foundation
import Testing

@testable import Emulator

struct LambdaEnvironmentTests {
    let function = FunctionDefinition(
        name: "Jwks", codeUri: "Functions/Jwks", handler: "bootstrap", runtime: "provided.al2023",
        architectures: ["x86_64"], timeoutSeconds: 3, memorySize: 256,
        environment: ["STAGE": "dev", "FROM_TEMPLATE": "template"]
    )

    @Test func lambdaVariablesThenTemplateThenOverrides() {
        let environment = LambdaEnvironment.make(
            function: function, runtimeAPI: "127.0.0.1:9001", taskRoot: "/task",
            host: ["AWS_REGION": "eu-west-1", "HOME": "/root", "AWS_SECRET_ACCESS_KEY": "s"],
            defaults: ["SIGNING_KEYS_FILE": "/p/.gatehouse/signing-keys.json", "STAGE": "default"],
            overrides: ["STAGE": "prod", "UNDECLARED": "applied"]
        )
        #expect(environment["AWS_LAMBDA_RUNTIME_API"] == "127.0.0.1:9001")
        #expect(environment["AWS_LAMBDA_FUNCTION_NAME"] == "Jwks")
        #expect(environment["AWS_LAMBDA_FUNCTION_MEMORY_SIZE"] == "256")
        #expect(environment["AWS_LAMBDA_FUNCTION_VERSION"] == "$LATEST")
        #expect(environment["_HANDLER"] == "bootstrap")
        #expect(environment["LAMBDA_TASK_ROOT"] == "/task")
        #expect(environment["AWS_REGION"] == "eu-west-1")
        #expect(environment["AWS_SECRET_ACCESS_KEY"] == "s")
        #expect(environment["HOME"] == nil, "the host environment is not inherited")
        #expect(environment["SIGNING_KEYS_FILE"] == "/p/.gatehouse/signing-keys.json")
        #expect(environment["FROM_TEMPLATE"] == "template")
        #expect(environment["STAGE"] == "prod")
        #expect(environment["UNDECLARED"] == "applied", "unlike SAM, undeclared overrides apply")
    }

    /// The host's AWS credentials reach a function only when asked for (`--pass-aws-env`);
    /// otherwise it gets local ones that reach no account. The region always passes.
    @Test func hostCredentialsPassOnlyWhenAskedFor() {
        let shell = [
            "AWS_ACCESS_KEY_ID": "AKIAREAL", "AWS_SECRET_ACCESS_KEY": "real-secret", "AWS_SESSION_TOKEN": "real",
            "AWS_REGION": "eu-west-1", "HOME": "/root",
        ]
        let kept = LambdaEnvironment.make(
            function: function, runtimeAPI: "127.0.0.1:9001", taskRoot: "/task",
            host: LambdaEnvironment.host(shell, passingCredentials: false))
        #expect(kept["AWS_ACCESS_KEY_ID"] == LambdaEnvironment.localCredentials["AWS_ACCESS_KEY_ID"])
        #expect(kept["AWS_SECRET_ACCESS_KEY"] == LambdaEnvironment.localCredentials["AWS_SECRET_ACCESS_KEY"])
        #expect(kept["AWS_SESSION_TOKEN"] == "gatehouse-local")
        #expect(!kept.values.contains("real-secret") && !kept.values.contains("AKIAREAL"))
        #expect(kept["AWS_REGION"] == "eu-west-1")
        let passed = LambdaEnvironment.make(
            function: function, runtimeAPI: "127.0.0.1:9001", taskRoot: "/task",
            host: LambdaEnvironment.host(shell, passingCredentials: true))
        #expect(passed["AWS_SECRET_ACCESS_KEY"] == "real-secret")
        #expect(passed["HOME"] == nil)
    }

    @Test func theRuntimeContractCannotBeOverridden() {
        let environment = LambdaEnvironment.make(
            function: function, runtimeAPI: "127.0.0.1:9001", taskRoot: "/task", host: [:],
            overrides: ["AWS_LAMBDA_RUNTIME_API": "evil:1", "_HANDLER": "x", "AWS_LAMBDA_FUNCTION_NAME": "Other"]
        )
        #expect(environment["AWS_LAMBDA_RUNTIME_API"] == "127.0.0.1:9001")
        #expect(environment["_HANDLER"] == "bootstrap")
        #expect(environment["AWS_LAMBDA_FUNCTION_NAME"] == "Jwks")
    }

    @Test func envVarsFilesFollowSAMsFormat() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("env-\(UUID().uuidString).json").path
        try Data(
            #"{"Parameters":{"STAGE":"prod","SHARED":"yes"},"Jwks":{"STAGE":"test","PORT":8080,"DEBUG":false}}"#.utf8
        )
        .write(to: URL(fileURLWithPath: path))
        let overrides = try EnvironmentOverrides.load(path: path)
        #expect(
            overrides.variables(for: "Jwks") == ["STAGE": "test", "SHARED": "yes", "PORT": "8080", "DEBUG": "false"])
        #expect(overrides.variables(for: "Other") == ["STAGE": "prod", "SHARED": "yes"])
    }

    @Test func aBrokenEnvVarsFileNamesThePlace() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("env-\(UUID().uuidString).json").path
        try Data(#"{"Jwks":{"LIST":[1,2]}}"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect(
            throws: TemplateError.invalid(path: path, place: "Jwks.LIST", reason: "must be a string, number or boolean")
        ) {
            try EnvironmentOverrides.load(path: path)
        }
        try Data(#"{"Jwks":"x"}"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: TemplateError.invalid(path: path, place: "Jwks", reason: "must be an object of variables")) {
            try EnvironmentOverrides.load(path: path)
        }
    }

    @Test func reportLinesLookLikeLambdas() {
        let report = InvocationReport(
            requestID: "r-1", durationMilliseconds: 2.731, memorySizeMB: 128, maxMemoryUsedMB: 38,
            initDurationMilliseconds: 17.2
        )
        #expect(report.startLine == "START RequestId: r-1 Version: $LATEST")
        #expect(report.endLine == "END RequestId: r-1")
        #expect(
            report.reportLine
                == "REPORT RequestId: r-1\tDuration: 2.73 ms\tBilled Duration: 3 ms\tMemory Size: 128 MB\tMax Memory Used: 38 MB\tInit Duration: 17.20 ms"
        )
        let warm = InvocationReport(
            requestID: "r", durationMilliseconds: 0.04, memorySizeMB: 128, maxMemoryUsedMB: 1,
            initDurationMilliseconds: nil)
        #expect(warm.billedDurationMilliseconds == 1)
        #expect(!warm.reportLine.contains("Init Duration"))
    }
}
