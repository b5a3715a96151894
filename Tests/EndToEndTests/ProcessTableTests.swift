import Emulator
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The helper the survivor checks rest on: it must see a running process, and must not count
/// one that has ended but is not reaped yet, and must tell one that has ended from one still running.
struct ProcessTableTests {
    @Test func aRunningProcessIsLivingAndAZombieIsNot() async throws {
        let value = UUID().uuidString
        let marker = "PROCESS_TABLE_TEST=\(value)"
        let child = try ChildProcess(
            executable: "/bin/sleep", arguments: ["30"], environment: ["PROCESS_TABLE_TEST": value], directory: "/")
        defer { child.kill() }
        // Until its exec completes, the child's /proc environment is still this process's.
        #expect(try await eventually(60) { ProcessTable.living(withEnvironment: marker) == [child.pid] })
        #expect(ProcessTable.isLiving(child.pid))
        #expect(!ProcessTable.hasEnded(child.pid))

        // Ended and not reaped: ChildProcess holds the zombie (waitid WNOWAIT) a moment before
        // reaping, so a zombie is made here with a process this test does not reap itself.
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { argv.forEach { free($0) } }
        #expect(posix_spawn(&pid, "/bin/true", nil, nil, argv, nil) == 0)
        #expect(try await eventually(30) { ProcessTable.statFields(pid)?.first == "Z" })
        #expect(!ProcessTable.isLiving(pid))
        #expect(ProcessTable.hasEnded(pid))
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid)
        #expect(!ProcessTable.isLiving(pid))
        #expect(ProcessTable.hasEnded(pid))

        child.kill(SIGKILL)
        _ = await child.terminated()
        #expect(ProcessTable.living(withEnvironment: marker).isEmpty)
    }
}
