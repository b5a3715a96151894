import Emulator
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Tests that end their own process on purpose, with helpers running, so that other tests can
/// watch what outlives the crash: the lifeline (`LifelineTests`) and `.ci/run`'s test runner
/// (`TestRunnerTests`). Each runs only when its environment switch is set, which the tests that
/// start this binary again do; in the suite they are skipped.
struct CrashingHelper {
    static let crashSwitch = "GATEHOUSE_CRASH_HELPER"
    static let hangSwitch = "GATEHOUSE_HANG_HELPER"

    /// Starts two sleepers, writes their pids to the file `GATEHOUSE_CRASH_HELPER` names, and
    /// crashes. The first is started as every helper of the tests is (`ChildProcess`), so its
    /// lifeline ends it; the second escapes as a badly behaved helper would (a session of its
    /// own, this process's output held open), so only a subreaper can end it.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[crashSwitch] != nil))
    func crashesWithHelpersRunning() throws {
        let file = try #require(ProcessInfo.processInfo.environment[Self.crashSwitch])
        let guarded = try ChildProcess(executable: "/bin/sleep", arguments: ["600"], environment: [:], directory: "/")
        var stray: pid_t = 0
        let words: [String] = ["/usr/bin/setsid", "/bin/sleep", "601"]
        let argv = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        try #require(posix_spawn(&stray, "/usr/bin/setsid", nil, nil, argv, environ) == 0)
        try "\(guarded.pid) \(stray)".write(toFile: file, atomically: true, encoding: .utf8)
        fatalError("CrashingHelper: a deliberate crash, with helpers \(guarded.pid) and \(stray) running")
    }

    /// Never ends: for the runner's time limit.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[hangSwitch] != nil))
    func hangs() async {
        await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
    }

    /// The arguments that run the tests of this binary whose names match `filter`, as `swift
    /// test` runs them.
    static func arguments(filter: String) -> [String] {
        ["--testing-library", "swift-testing", "--filter", filter]
    }

    /// This test binary.
    static var testBinary: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
    }

    /// The environment to start the crash with: its pids written to `pids`, no slow backtrace.
    static func crashEnvironment(pids: String) -> [String: String] {
        ProcessInfo.processInfo.environment.merging([crashSwitch: pids, "SWIFT_BACKTRACE": "enable=no"]) { $1 }
    }

    /// The guarded and the stray helper's pids, as `crashesWithHelpersRunning` wrote them.
    static func helpers(in file: String) throws -> (guarded: pid_t, stray: pid_t) {
        let pids = try String(contentsOfFile: file, encoding: .utf8).split(separator: " ").compactMap { pid_t($0) }
        try #require(pids.count == 2)
        return (pids[0], pids[1])
    }

    /// Whether `pid` runs: it exists and is not a zombie waiting to be reaped.
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(after: end)...].split(separator: " ").first != "Z"
    }
}
