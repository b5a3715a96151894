import Emulator
import Foundation
import GatehouseJSON
import LambdaRuntime
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Every way an invocation can go wrong, through real processes, with the answer Lambda gives.
struct InvokeFailureTests {
    let cli = GatehouseCLI()

    @Test func echoRoundTripsTheEvent() async throws {
        let run = try await cli.misbehave(["action": "echo", "nested": ["n": 1.5, "list": [true, nil]]])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(try run.json() == ["action": "echo", "nested": ["n": 1.5, "list": [true, nil]]])
    }

    @Test func theContextAndLogsCarryTheRequestID() async throws {
        let run = try await cli.misbehave(["action": "context"])
        #expect(run.status == 0)
        let context = try run.json()
        let requestID = try #require(context["requestId"]?.stringValue)
        #expect(run.stderr.contains("START RequestId: \(requestID) Version: $LATEST"))
        #expect(context["functionArn"] == "arn:aws:lambda:us-east-1:012345678912:function:MisbehavingSlow")
        let remaining = try #require(context["remainingMs"]?.numberValue)
        #expect(remaining > 0 && remaining <= 30_000, "MisbehavingSlow's Timeout is 30 s in the fixture template")
        #expect(context["cwd"]?.stringValue == GatehouseCLI.binDirectory.path, "the task root, as on Lambda")
        // The function's own JSON log line, with the request id, precedes END.
        let logLine = try #require(
            run.stderr.split(separator: "\n").first { $0.contains("\"message\":\"misbehaving\"") })
        #expect(logLine.contains("\"requestId\":\"\(requestID)\""))
        #expect(logLine.contains("\"level\":\"INFO\""))
    }

    @Test func aHandlerErrorExitsOneWithLambdasErrorPayload() async throws {
        let run = try await cli.misbehave(["action": "error"])
        #expect(run.status == 1)
        let error = try run.json()
        #expect(error["errorType"] == "Misbehaving.Failure")
        #expect(error["errorMessage"] == "asked to fail")
        #expect(run.report != nil)
    }

    @Test func aCrashIsARuntimeExitErrorWithTheStatus() async throws {
        let crash = try await cli.misbehave(["action": "crash"])
        #expect(crash.status == 1)
        #expect(try crash.json()["errorType"] == "Runtime.ExitError")
        #expect(
            try crash.json()["errorMessage"]?.stringValue?.hasSuffix("Runtime exited with error: exit status 3") == true
        )

        let abort = try await cli.misbehave(["action": "abort"])
        #expect(abort.status == 1)
        #expect(
            try abort.json()["errorMessage"]?.stringValue?.hasSuffix("Runtime exited with error: signal: aborted")
                == true)
    }

    @Test func nothingAFunctionStartedOutlivesIt() async throws {
        let run = try await cli.misbehave(["action": "spawn"])
        #expect(run.status == 0)
        let pid = try #require(try run.json().numberValue.map { Int32($0) })
        // Killed with its group: gone, a zombie waiting for init to reap it, or still being torn down.
        #expect(!ProcessTable.isLiving(pid), "the grandchild \(pid) is still running")
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func stoppingGatehouseStopsItsFunction(signal: Int32) async throws {
        let marker = UUID().uuidString
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-stop-\(marker)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let envVars = folder.appendingPathComponent("env.json").path
        try Data(#"{"MisbehavingSlow": {"STOP_MARKER": "\#(marker)"}}"#.utf8).write(to: URL(fileURLWithPath: envVars))
        let event = folder.appendingPathComponent("event.json").path
        try Data(#"{"action": "hang"}"#.utf8).write(to: URL(fileURLWithPath: event))
        let stderr = folder.appendingPathComponent("stderr").path
        let gatehouse = try ChildProcess(
            executable: GatehouseCLI.binDirectory.appendingPathComponent("gatehouse").path,
            arguments: [
                "invoke", "MisbehavingSlow", "--template", GatehouseCLI.fixtureTemplate, "--no-build",
                "--event", event, "--env-vars", envVars,
            ],
            environment: ProcessInfo.processInfo.environment.merging(
                ["SIGNING_KEYS_FILE": cli.keysFile, "GATEHOUSE_STORE": cli.storeFile]
            ) { $1 },
            directory: GatehouseCLI.repositoryRoot.path,
            output: .file(folder.appendingPathComponent("stdout").path),
            error: .file(stderr)
        )
        // The function is running once its START line is out (bounded wait on another process).
        _ = try await eventually(20) {
            (try? String(contentsOfFile: stderr, encoding: .utf8))?.contains("START RequestId") ?? false
        }
        #expect(Self.processes(withMarker: marker).count == 1, "the function should be running")
        _ = kill(gatehouse.pid, signal)
        let termination = await gatehouse.terminated()
        #expect(termination.reason == .exited(128 + signal))
        #expect(Self.processes(withMarker: marker).isEmpty, "no function process survives the emulator")
    }

    /// Living processes (see `ProcessTable`) whose environment carries `STOP_MARKER=marker`.
    static func processes(withMarker marker: String) -> [Int32] {
        ProcessTable.living(withEnvironment: "STOP_MARKER=\(marker)")
    }

    @Test func theTemplateTimeoutKillsAHangingFunction() async throws {
        let started = ContinuousClock.now
        let run = try await cli.misbehave(["action": "hang"], function: "Misbehaving")
        let elapsed = ContinuousClock.now - started
        #expect(run.status == 1)
        let error = try run.json()
        #expect(error["errorType"] == "Sandbox.Timedout")
        #expect(error["errorMessage"]?.stringValue?.hasSuffix("Task timed out after 1.00 seconds") == true)
        // The handler sleeps for an hour: returning at all means the process was killed.
        #expect(elapsed < .seconds(60), "killed at its timeout, not left running")
        let duration = try #require(
            run.report?["Duration"].flatMap { Double($0.replacingOccurrences(of: " ms", with: "")) })
        #expect(duration >= 1000, "not cut short before its Timeout of 1 s")
    }

    @Test func aResponseOverSixMiBIsAnErrorNotATruncation() async throws {
        // The slow variant: encoding 6 MiB in a debug build may take longer than 1 s under load.
        let run = try await cli.misbehave(["action": "big"])
        #expect(run.status == 1, "stderr: \(run.stderr.suffix(500))")
        #expect(run.status == 1)
        #expect(try run.json()["errorType"] == "Function.ResponseSizeTooLarge")
        #expect(run.stdout.count < 1024)
    }

    @Test func anInitFailureIsReportedWithItsOwnType() async throws {
        let run = try await cli.misbehave(
            ["action": "echo"], envVars: #"{"MisbehavingSlow": {"MISBEHAVE_INIT": "fail"}}"#)
        #expect(run.status == 1)
        let error = try run.json()
        #expect(error["errorType"] == "Misbehaving.InitFailure")
        #expect(error["errorMessage"] == "initialisation asked to fail")
    }

    @Test func environmentPrecedenceIsGlobalsThenFunctionThenEnvVars() async throws {
        func value(_ name: String, envVars: String? = nil) async throws -> JSONValue {
            try await cli.misbehave(["action": "env", "name": .string(name)], envVars: envVars).json()
        }
        #expect(try await value("FROM_GLOBALS") == "globals")
        #expect(try await value("OVERRIDDEN") == "function")
        let envVars =
            #"{"Parameters": {"OVERRIDDEN": "parameters", "SHARED": "p"}, "MisbehavingSlow": {"UNDECLARED": "applied"}}"#
        #expect(try await value("OVERRIDDEN", envVars: envVars) == "parameters")
        #expect(try await value("UNDECLARED", envVars: envVars) == "applied")
        #expect(try await value("AWS_LAMBDA_FUNCTION_NAME") == "MisbehavingSlow")
        #expect(try await value("HOME") == .null, "the host environment is not inherited")
        #expect(try await value("GATEHOUSE_STORE") == .string(cli.storeFile), "the function opens the emulator's store")
    }

    /// The shell's AWS credentials reach a function only with `--pass-aws-env`; otherwise it has
    /// local ones that reach no account. Before, they were always passed on.
    @Test func hostAWSCredentialsPassOnlyWhenAskedFor() async throws {
        let event = try JSONEncoder().encode(["action": "env", "name": "AWS_SECRET_ACCESS_KEY"])
        let base = [
            "invoke", "MisbehavingSlow", "--template", GatehouseCLI.fixtureTemplate, "--no-build", "--event", "-",
        ]
        let shell = ["AWS_SECRET_ACCESS_KEY": "the-shell-s-secret", "AWS_ACCESS_KEY_ID": "AKIASHELL"]
        let kept = try await cli.run(base, stdin: event, environment: shell)
        #expect(try kept.json() == "gatehouse-local-credentials-reach-no-aws-account", "stderr: \(kept.stderr)")
        let passed = try await cli.run(base + ["--pass-aws-env"], stdin: event, environment: shell)
        #expect(try passed.json() == "the-shell-s-secret", "stderr: \(passed.stderr)")
    }

    /// A `CodeUri` may be absolute; one with no executable names the path it looked for.
    @Test func anAbsoluteCodeUriRunsAndAMissingOneIsNamed() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("codeuri-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let echo = GatehouseCLI.repositoryRoot.appendingPathComponent("Tests/Fixtures/PythonEcho").path
        let template = folder.appendingPathComponent("template.json").path
        try Data(
            #"""
            {"Resources": {
              "Echo": {"Type": "AWS::Serverless::Function", "Properties": {"CodeUri": "\#(echo)", "Runtime": "provided.al2023", "Handler": "bootstrap"}},
              "Gone": {"Type": "AWS::Serverless::Function", "Properties": {"CodeUri": "/nonexistent/gone", "Runtime": "provided.al2023", "Handler": "bootstrap"}}
            }}
            """#.utf8
        ).write(to: URL(fileURLWithPath: template))
        let run = try await cli.run(
            ["invoke", "Echo", "--template", template, "--event", "-"], stdin: Data(#"{"from":"abs"}"#.utf8))
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(try run.json()["echo"] == ["from": "abs"])
        let gone = try await cli.run(["invoke", "Gone", "--template", template])
        #expect(gone.status == 2)
        #expect(gone.stderr.contains("no executable at /nonexistent/gone/bootstrap"), "\(gone.stderr)")
    }

    @Test func aCustomRuntimeInAnotherLanguageRunsFromItsBootstrap() async throws {
        let run = try await cli.run(
            ["invoke", "PythonEcho", "--template", GatehouseCLI.fixtureTemplate, "--event", "-"],
            stdin: Data(#"{"from":"test"}"#.utf8)
        )
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let response = try run.json()
        #expect(response["runtime"] == "python")
        #expect(response["echo"] == ["from": "test"])
        #expect(response["hasDeadline"] == true)
        #expect(response["function"] == "PythonEcho")
        #expect(run.stderr.contains("START RequestId: \(response["requestId"]!.stringValue!)"))
    }
}
