import Foundation

/// Packaged builds leave out the DWARF unwind tables (`.eh_frame` and its index,
/// `.eh_frame_hdr`): about 2.8 MB of every bootstrap and 0.8 MB of every zip, a tenth of it.
///
/// What reads them, and what it does without them:
/// - Swift reports errors by return value, never by unwinding.
/// - C++ exceptions: the Swift runtime is C++ built without them, and the only objects linked
///   into a function with exception tables are BoringSSL's (cleanups for its `unique_ptr`s; it
///   never throws). Nothing linked in catches one (`check(_:named:)` refuses a binary that
///   does), so a throw, say `std::bad_alloc` from libstdc++, ends in `std::terminate` as before.
/// - glibc's `pthread_exit` unwinds the thread's stack; it stops at the first frame without a
///   table and ends the thread all the same. Every function does this at its start: top-level
///   `await` ends the main thread through `dispatch_main`.
/// - A crash ends with the same message and signal. What is lost is the DWARF backtrace: the
///   Swift runtime's, `perf`'s and gdb's stop at the binary's first frame (frame pointers stay).
///
/// `UnwindTablesTests` builds programs both ways to compare. The libraries loaded at run time
/// (libcurl, libstdc++, glibc) keep their own tables.
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

    /// Refuses a binary linked without unwind tables that catches C++ exceptions (it calls
    /// `__cxa_end_catch`): a throw it means to catch would end the process instead. For
    /// release builds: a debug build calls it from libstdc++'s catch-and-rethrow cleanups.
    public static func check(_ file: ELFFile, named name: String) throws(UnwindTablesError) {
        guard !file.hasUnwindTables else { return }
        if file.versionNeeds.contains(where: { $0.symbols.contains("__cxa_end_catch") }) {
            throw .catchesCxxExceptions(name)
        }
    }

    /// The linker arguments, for `swift build`, that leave the tables out: the script, and no
    /// `.eh_frame_hdr` index (the compiler driver asks for one).
    public static func linkerArguments(script: String) -> [String] {
        ["-Xlinker", "--no-eh-frame-hdr", "-Xlinker", script]
    }
}

/// A binary that needs the unwind tables it was linked without.
public enum UnwindTablesError: Error, Equatable, CustomStringConvertible {
    case catchesCxxExceptions(String)

    public var description: String {
        switch self {
        case .catchesCxxExceptions(let name):
            "\(name) catches C++ exceptions (it calls __cxa_end_catch), which needs the unwind tables packaged builds leave out"
        }
    }
}
