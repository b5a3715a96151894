import Emulator
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `.ci/run`'s test runner (`Tools/run-tests.py`) always ends, with a summary CI can read, and
/// leaves nothing running: driven here over this very test binary, made to crash or hang by
/// `CrashingHelper`'s switches.
struct TestRunnerTests {
    static let runner = GatehouseCLI.repositoryRoot.appendingPathComponent("Tools/run-tests.py").path

    /// Runs the runner with `options` over `command`.
    static func run(
        _ options: [String], _ command: [String], environment: [String: String]
    ) async throws
        -> ChildProcess.Captured
    {
        try await ChildProcess.capture(
            "/usr/bin/env", ["python3", runner] + options + ["--"] + command, environment: environment)
    }

    /// The last line that is not empty.
    static func summary(_ output: String) -> String {
        output.split(separator: "\n").last.map(String.init) ?? ""
    }

    /// The test process crashes while a helper it left holds its output open, and the command
    /// that started it waits for that output to close, as `swift test` does: the runner ends
    /// everything, names the test that was running, and fails.
    @Test(.timeLimit(.minutes(2)))
    func aCrashWithAHelperHoldingTheOutputEndsTheRun() async throws {
        let pids = FileManager.default.temporaryDirectory.appendingPathComponent("runner-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: pids) }
        // `sh` stands in for `swift test`: it reads the test binary's output to its end. The
        // binary is named in the environment, so that only the test process's command line
        // names an `.xctest`, as with `swift test`.
        let command =
            ["/bin/sh", "-c", #""$TEST_BINARY" "$@" 2>&1 | cat"#, "sh"]
            + CrashingHelper.arguments(filter: "CrashingHelper/crashesWithHelpersRunning")
        var environment = CrashingHelper.crashEnvironment(pids: pids)
        environment["TEST_BINARY"] = CrashingHelper.testBinary
        let run = try await Self.run(["--grace", "3", "--limit", "60"], command, environment: environment)
        let output = run.standardOutput
        #expect(run.termination.reason != .exited(0))
        #expect(output.contains("while these tests were running:\n"), "\(output)")
        #expect(output.contains("crashesWithHelpersRunning()"), "\(output)")
        #expect(Self.summary(output) == "0 passed, 1 failed", "\(output)")
        let (guarded, stray) = try CrashingHelper.helpers(in: pids)
        #expect(!CrashingHelper.isRunning(guarded))
        #expect(!CrashingHelper.isRunning(stray))
    }

    /// A test that never ends: past the limit, the runner prints where the process waits, ends
    /// it, names the test and fails.
    @Test(.timeLimit(.minutes(2)))
    func aHangEndsAtTheLimit() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment[CrashingHelper.hangSwitch] = "1"
        let run = try await Self.run(
            ["--grace", "3", "--limit", "10"],
            [CrashingHelper.testBinary] + CrashingHelper.arguments(filter: "CrashingHelper/hangs"),
            environment: environment)
        let output = run.standardOutput
        #expect(run.termination.reason == .exited(124), "\(output)\(run.standardError)")
        #expect(output.contains("hangs()"), "\(output)")
        #expect(Self.summary(output) == "0 passed, 1 failed", "\(output)")
    }
}
