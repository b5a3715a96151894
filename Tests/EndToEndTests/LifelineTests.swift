import Emulator
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A process that crashes leaves none of the children it started as `ChildProcess`es running:
/// the lifeline's guardian ends their groups. (A test process that crashed once left a store
/// racer running at 90% CPU, holding the test runner's output open, and CI hung.)
struct LifelineTests {
    @Test(.timeLimit(.minutes(2)))
    func aCrashedProcessLeavesNoChildRunning() async throws {
        let pids = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: pids) }
        let run = try await ChildProcess.capture(
            CrashingHelper.testBinary, CrashingHelper.arguments(filter: "CrashingHelper/crashesWithHelpersRunning"),
            environment: CrashingHelper.crashEnvironment(pids: pids))
        #expect(run.termination.reason != .exited(0), "\(run.standardOutput)\(run.standardError)")
        let (guarded, stray) = try CrashingHelper.helpers(in: pids)
        defer { kill(stray, SIGKILL) }
        #expect(try await eventually(10) { !CrashingHelper.isRunning(guarded) })
        // The control: the stray, which no lifeline covers, outlived the crash (ended above).
        #expect(CrashingHelper.isRunning(stray))
    }
}
