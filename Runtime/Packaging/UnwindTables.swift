import Foundation

/// Packaged builds leave out the DWARF unwind tables (`.eh_frame` and its index,
/// `.eh_frame_hdr`): about 2.8 MB of every bootstrap and 0.8 MB of every zip, a tenth of it.
///
/// Nothing in a function unwinds through them. Swift reports errors by return value, not by
/// unwinding; the Swift runtime and Foundation are C++ built without exceptions; the only code
/// linked in with exception tables is BoringSSL's, whose cleanups never run because BoringSSL
/// never throws. glibc's `pthread_exit`, which unwinds the thread's stack, stops at the first
/// frame without a table and ends the thread all the same. A crash ends as before, with the
/// same message and signal (`UnwindTablesTests` builds a program both ways to compare); what is
/// lost is a DWARF backtrace of it, whose frames a stripped binary could not name anyway. The
/// libraries loaded at run time (libcurl, libstdc++, glibc) keep their own tables.
public enum UnwindTables {
    /// The linker script that discards `.eh_frame`; `INSERT` keeps the linker's own layout for
    /// everything else. lld and GNU ld both read it.
    public static let discardingScript = "SECTIONS { /DISCARD/ : { *(.eh_frame) } } INSERT AFTER .text;\n"

    /// Where `write(packageDirectory:)` puts the script: one fixed path, so the link command
    /// (and SwiftPM's record of it) is the same from one packaging to the next.
    public static func scriptPath(packageDirectory: String) -> String {
        "\(packageDirectory)/.build/gatehouse/discard-unwind-tables.ld"
    }

    /// Writes the script under the package's `.build` (rewriting it only when it differs) and
    /// returns its path.
    public static func write(packageDirectory: String) throws -> String {
        let path = scriptPath(packageDirectory: packageDirectory)
        let bytes = Data(discardingScript.utf8)
        if FileManager.default.contents(atPath: path) != bytes {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try bytes.write(to: URL(fileURLWithPath: path), options: .atomic)
        }
        return path
    }

    /// The linker arguments, for `swift build`, that leave the tables out: the script, and no
    /// `.eh_frame_hdr` index (the compiler driver asks for one).
    public static func linkerArguments(script: String) -> [String] {
        ["-Xlinker", "--no-eh-frame-hdr", "-Xlinker", script]
    }
}
