import Foundation
import LambdaRuntime
import Testing

/// Every way an invocation can go wrong, through real processes, with the answer Lambda gives.
struct InvokeFailureTests {
    let cli = GatehouseCLI()

    @Test func echoRoundTripsTheEvent() throws {
        let run = try cli.misbehave(["action": "echo", "nested": ["n": 1.5, "list": [true, nil]]])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(try run.json() == ["action": "echo", "nested": ["n": 1.5, "list": [true, nil]]])
    }

    @Test func theContextAndLogsCarryTheRequestID() throws {
        let run = try cli.misbehave(["action": "context"])
        #expect(run.status == 0)
        let context = try run.json()
        let requestID = try #require(context["requestId"]?.stringValue)
        #expect(run.stderr.contains("START RequestId: \(requestID) Version: $LATEST"))
        #expect(context["functionArn"] == "arn:aws:lambda:us-east-1:012345678912:function:Misbehaving")
        let remaining = try #require(context["remainingMs"]?.numberValue)
        #expect(remaining > 0 && remaining <= 1000, "Timeout is 1 s in the fixture template")
        #expect(context["cwd"]?.stringValue == GatehouseCLI.binDirectory.path, "the task root, as on Lambda")
        // The function's own JSON log line, with the request id, precedes END.
        let logLine = try #require(
            run.stderr.split(separator: "\n").first { $0.contains("\"message\":\"misbehaving\"") })
        #expect(logLine.contains("\"requestId\":\"\(requestID)\""))
        #expect(logLine.contains("\"level\":\"INFO\""))
    }

    @Test func aHandlerErrorExitsOneWithLambdasErrorPayload() throws {
        let run = try cli.misbehave(["action": "error"])
        #expect(run.status == 1)
        let error = try run.json()
        #expect(error["errorType"] == "Misbehaving.Failure")
        #expect(error["errorMessage"] == "asked to fail")
        #expect(run.report != nil)
    }

    @Test func aCrashIsARuntimeExitErrorWithTheStatus() throws {
        let crash = try cli.misbehave(["action": "crash"])
        #expect(crash.status == 1)
        #expect(try crash.json()["errorType"] == "Runtime.ExitError")
        #expect(
            try crash.json()["errorMessage"]?.stringValue?.hasSuffix("Runtime exited with error: exit status 3") == true
        )

        let abort = try cli.misbehave(["action": "abort"])
        #expect(abort.status == 1)
        #expect(
            try abort.json()["errorMessage"]?.stringValue?.hasSuffix("Runtime exited with error: signal: aborted")
                == true)
    }

    @Test func theTemplateTimeoutKillsAHangingFunction() throws {
        let started = ContinuousClock.now
        let run = try cli.misbehave(["action": "hang"])
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

    @Test func aResponseOverSixMiBIsAnErrorNotATruncation() throws {
        let run = try cli.misbehave(["action": "big"])
        #expect(run.status == 1)
        #expect(try run.json()["errorType"] == "Function.ResponseSizeTooLarge")
        #expect(run.stdout.count < 1024)
    }

    @Test func anInitFailureIsReportedWithItsOwnType() throws {
        let run = try cli.misbehave(["action": "echo"], envVars: #"{"Misbehaving": {"MISBEHAVE_INIT": "fail"}}"#)
        #expect(run.status == 1)
        let error = try run.json()
        #expect(error["errorType"] == "Misbehaving.InitFailure")
        #expect(error["errorMessage"] == "initialisation asked to fail")
    }

    @Test func environmentPrecedenceIsGlobalsThenFunctionThenEnvVars() throws {
        func value(_ name: String, envVars: String? = nil) throws -> JSONValue {
            try cli.misbehave(["action": "env", "name": .string(name)], envVars: envVars).json()
        }
        #expect(try value("FROM_GLOBALS") == "globals")
        #expect(try value("OVERRIDDEN") == "function")
        let envVars =
            #"{"Parameters": {"OVERRIDDEN": "parameters", "SHARED": "p"}, "Misbehaving": {"UNDECLARED": "applied"}}"#
        #expect(try value("OVERRIDDEN", envVars: envVars) == "parameters")
        #expect(try value("UNDECLARED", envVars: envVars) == "applied")
        #expect(try value("AWS_LAMBDA_FUNCTION_NAME") == "Misbehaving")
        #expect(try value("HOME") == .null, "the host environment is not inherited")
    }

    @Test func aCustomRuntimeInAnotherLanguageRunsFromItsBootstrap() throws {
        let run = try cli.run(
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
