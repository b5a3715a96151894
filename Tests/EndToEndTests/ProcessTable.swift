import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The machine's processes as /proc shows them, for tests that count a server's function
/// processes or check that none outlives it.
enum ProcessTable {
    /// Processes whose environment holds `entry` (`NAME=value`) and that are still living: not a
    /// zombie, and not already on their way out.
    ///
    /// A process sent SIGKILL keeps its /proc entry, environment included, until the kernel has
    /// torn it down, which on a busy machine is a moment after the killer itself has exited. It
    /// cannot survive (SIGKILL is neither caught nor blocked), so it does not count.
    /// Whether process `pid` was started with `entry` (`NAME=value`) in its environment.
    static func hasEnvironment(_ pid: pid_t, _ entry: String) -> Bool {
        guard let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
        return String(decoding: environ, as: UTF8.self).split(separator: "\0").contains(Substring(entry))
    }

    static func living(withEnvironment entry: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { name -> pid_t? in
            guard let pid = pid_t(name), hasEnvironment(pid, entry), isLiving(pid) else { return nil }
            return pid
        }
    }

    /// PF_EXITING in /proc/PID/stat's flags: the process has begun to exit.
    private static let exitingFlag: UInt = 0x4
    /// SIGKILL's bit in /proc/PID/status's pending-signal masks.
    private static let killBit: UInt64 = 1 << (UInt64(SIGKILL) - 1)

    /// The fields of /proc/PID/stat after the command name (state, ppid, pgrp, session, tty_nr,
    /// tpgid, flags, ...); nil once the process is gone. The name may itself hold ")" and spaces.
    static func statFields(_ pid: pid_t) -> [Substring]? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ")
    }

    /// Gone from /proc, or a zombie: the kernel has finished tearing it down, its sockets are
    /// closed, and its parent can see that it ended. A process that is only exiting (`isLiving`
    /// is already false) may still hold its sockets open for a moment.
    static func hasEnded(_ pid: pid_t) -> Bool {
        guard let fields = statFields(pid), let state = fields.first else { return true }
        return ["Z", "X", "x"].contains(state)
    }

    /// Not gone, not a zombie, not exiting, and no SIGKILL pending.
    static func isLiving(_ pid: pid_t) -> Bool {
        guard let fields = statFields(pid), fields.count > 6, !["Z", "X", "x"].contains(fields[0]) else {
            return false
        }
        if let flags = UInt(fields[6]), flags & exitingFlag != 0 { return false }
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
        for line in status.split(separator: "\n") where line.hasPrefix("SigPnd:") || line.hasPrefix("ShdPnd:") {
            let mask = line.split(separator: "\t").last.flatMap { UInt64($0, radix: 16) } ?? 0
            if mask & killBit != 0 { return false }
        }
        return true
    }
}
