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
