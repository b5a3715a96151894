#if canImport(Glibc)
import Glibc
#endif
// With NIO in the same module, the C importer may file `struct stat` under NIO's C shim module,
// which includes the same system header: its members are then visible only through that module.
#if canImport(CNIOLinux)
import CNIOLinux
#endif

/// What tells one build of a binary from the next: its inode, size and modification time. A
/// rebuild (a new file renamed into place, or the old one rewritten) changes at least one.
struct ExecutableSignature: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modifiedSeconds: Int
    let modifiedNanoseconds: Int

    /// The signature of the file at `path`; nil when it cannot be read (mid-build, removed).
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modifiedSeconds = info.st_mtim.tv_sec
        modifiedNanoseconds = info.st_mtim.tv_nsec
    }
}
