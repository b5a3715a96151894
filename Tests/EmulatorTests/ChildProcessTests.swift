import Emulator
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What a spawned instance gets from the emulator, and what it must not.
struct ChildProcessTests {
    /// A descriptor the emulator opened without O_CLOEXEC (Foundation's `copyItem` opens its
    /// destination that way) does not reach the child. Inherited, a file being written stays open
    /// for writing as long as the child lives, and nothing can execute it (ETXTBSY): a rebuilt
    /// binary copied in by a test could not start.
    @Test func onlyTheStandardDescriptorsAreInherited() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let held = open(folder.appendingPathComponent("held").path, O_WRONLY | O_CREAT, 0o644)
        try #require(held >= 3)
        defer { close(held) }

        let listing = folder.appendingPathComponent("fds").path
        let child = try ChildProcess(
            executable: "/bin/ls", arguments: ["-l", "/proc/self/fd"], environment: [:],
            directory: folder.path, output: .file(listing)
        )
        #expect(await child.terminated().reason == .exited(0))
        let lines = try String(contentsOfFile: listing, encoding: .utf8).split(separator: "\n")
        // `ls -l` names each descriptor's target: its standard output is the listing itself.
        #expect(lines.contains { $0.hasSuffix(" 1 -> \(listing)") })
        #expect(!lines.contains { $0.hasSuffix("/held") }, "\(lines)")
    }

    /// With `batchScheduling`, the child runs under SCHED_BATCH (3) and so do the processes it
    /// starts; the thread that spawned it keeps its own policy, and a child spawned without it
    /// gets the usual one (SCHED_OTHER, 0).
    @Test func batchSchedulingReachesTheChildOnly() async throws {
        let before = sched_getscheduler(0)
        let batch = try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", "sleep 30 & wait"], environment: [:], directory: "/",
            output: .file("/dev/null"), batchScheduling: true)
        defer { batch.kill(SIGKILL) }
        #expect(sched_getscheduler(0) == before)
        let plain = try ChildProcess(
            executable: "/bin/sleep", arguments: ["30"], environment: [:], directory: "/", output: .file("/dev/null"))
        defer { plain.kill(SIGKILL) }

        #expect(sched_getscheduler(batch.pid) == 3)
        #expect(sched_getscheduler(plain.pid) == 0)
        // The shell's own child, started after the spawn, inherits the policy.
        let grandchild = try #require(await Self.firstChild(of: batch.pid))
        #expect(sched_getscheduler(grandchild) == 3)
    }

    /// The first child of `pid` in /proc, waiting (bounded) for it to appear: up to 30 s, since a
    /// batch-scheduled shell on a machine busy with the rest of the suite may wait long to fork.
    private static func firstChild(of pid: pid_t) async -> pid_t? {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
            if let first = children.split(separator: " ").first.flatMap({ pid_t($0) }) { return first }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    /// Running, a process has not exited; once it ends, it has, reaped or not.
    @Test func hasExitedFollowsTheProcess() async throws {
        let child = try ChildProcess(
            executable: "/bin/sleep", arguments: ["30"], environment: [:], directory: "/", output: .file("/dev/null"))
        #expect(!child.hasExited)
        child.kill(SIGKILL)
        #expect(await child.terminated().reason == .signaled(SIGKILL))
        #expect(child.hasExited)
    }
}
