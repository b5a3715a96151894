import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Ends every `ChildProcess`'s group when the process that started them ends, however it ends:
/// a crash, `SIGKILL`, an `exit` on any thread. start-api's functions, and the helpers a test
/// starts (a store racer, start-api itself, Python tools, moto, a browser), never outlive it.
///
/// A signal handler cannot do this (nothing runs on `SIGKILL`, and a crash may not get that
/// far), nor can `PR_SET_PDEATHSIG`: it fires when the *thread* that spawned the child ends, and
/// the threads Swift's tasks run on come and go. Instead, on the first spawn a guardian is
/// started: a small shell in a process group of its own, reading one end of a socket pair of
/// which only this process holds the other. Each child's group is written to it when spawned
/// (`+PID`) and when reaped (`-PID`). When this process ends, the kernel closes its end, the
/// guardian reads end-of-file, kills the groups still listed, and exits.
enum Lifeline {
    /// The guardian's script: POSIX sh (dash), deaf to the signals a terminal or a supervisor
    /// sends a whole process group.
    static let script = """
        trap '' INT TERM HUP QUIT
        groups=' '
        while read -r line; do
            case $line in
                +*) groups="$groups${line#+} " ;;
                -*) p=${line#-}; case $groups in *" $p "*) groups="${groups%% $p *} ${groups#* $p }" ;; esac ;;
            esac
        done
        for g in $groups; do kill -9 -$g 2>/dev/null; done
        """

    /// This process's end of the socket pair, or nil if the guardian could not be started
    /// (children then live as before: a crash can orphan them).
    private static let descriptor = Mutex<Int32?>(nil)
    private static let started = Atomic<Bool>(false)

    /// Lists `group` with the guardian; call before anything else can reap it.
    static func register(_ group: pid_t) { say("+\(group)\n") }

    /// Takes `group` off the list: its process has been reaped and the id may be reused.
    static func unregister(_ group: pid_t) { say("-\(group)\n") }

    /// Starts the guardian if it is not running yet: before a spawn, so that it is not started
    /// under the scheduling policy a child is spawned with.
    static func prepare() {
        descriptor.withLock { descriptor in
            if descriptor == nil, !started.exchange(true, ordering: .relaxed) { descriptor = startGuardian() }
        }
    }

    private static func say(_ line: String) {
        prepare()
        descriptor.withLock { descriptor in
            guard let fd = descriptor else { return }
            let bytes = Array(line.utf8)
            // Never blocks (a guardian that stopped reading must not hold a spawn, a reap or the
            // termination handler), never raises SIGPIPE (one that died must not take this
            // process with it). Either way the guardian is given up: children then live as
            // they did before it.
            let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if sent != bytes.count {
                close(fd)
                descriptor = nil
            }
        }
    }

    /// Starts the guardian; returns this process's end of the pair (close-on-exec, so no
    /// child inherits it and holds the guardian open).
    private static func startGuardian() -> Int32? {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            return nil
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pair[1], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Nothing else of this process's: a pipe's write end held here would keep its reader
        // waiting for as long as this process lives.
        _ = ChildProcess.addCloseFrom?(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        _ = ChildProcess.addChdir?(&actions, "/")
        // A fixed environment: nothing of this process's (a shell function exported in it could
        // stand in for `kill` where /bin/sh is bash).
        let words: [String] = ["/bin/sh", "-c", script, "gatehouse-lifeline"]
        let argv = words.map { strdup($0) } + [nil]
        let envp = [strdup("PATH=/usr/bin:/bin"), nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
        close(pair[1])
        guard result == 0 else {
            close(pair[0])
            return nil
        }
        return pair[0]
    }
}
