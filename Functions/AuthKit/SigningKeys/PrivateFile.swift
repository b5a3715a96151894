#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Small POSIX file operations for secrets: mode 0600, atomic replacement, exclusive creation.
enum PrivateFile {
    struct Failure: Error, CustomStringConvertible {
        let operation: String
        let code: Int32
        var description: String { "\(operation): \(String(cString: strerror(code)))" }
    }

    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    static func read(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(operation: "open", code: errno) }
        defer { close(fd) }
        var result = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(operation: "read", code: errno)
            }
            if count == 0 { return result }
            result.append(contentsOf: chunk[0..<count])
        }
    }

    /// Writes `contents` to `path` only if nothing is there yet; false when something was.
    static func createExclusively(_ path: String, contents: [UInt8]) throws -> Bool {
        try makeParentDirectory(of: path)
        let temporary = try writeTemporary(besides: path, contents: contents)
        defer { unlink(temporary) }
        // link(2) fails with EEXIST instead of replacing: the first process to get here wins.
        if link(temporary, path) == 0 { return true }
        if errno == EEXIST { return false }
        throw Failure(operation: "link", code: errno)
    }

    /// Replaces `path` with `contents` atomically.
    static func replace(_ path: String, contents: [UInt8]) throws {
        try makeParentDirectory(of: path)
        let temporary = try writeTemporary(besides: path, contents: contents)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw Failure(operation: "rename", code: code)
        }
    }

    private static func writeTemporary(besides path: String, contents: [UInt8]) throws -> String {
        var template = Array("\(path).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw Failure(operation: "mkstemp", code: errno) }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        defer { close(fd) }
        fchmod(fd, 0o600)
        var offset = 0
        while offset < contents.count {
            let written = contents.withUnsafeBytes { write(fd, $0.baseAddress! + offset, contents.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                let code = errno
                unlink(temporary)
                throw Failure(operation: "write", code: code)
            }
            offset += written
        }
        guard fsync(fd) == 0 else {
            let code = errno
            unlink(temporary)
            throw Failure(operation: "fsync", code: code)
        }
        return temporary
    }

    private static func makeParentDirectory(of path: String) throws {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
        let parent = String(path[..<slash])
        var prefix = parent.hasPrefix("/") ? "" : "."
        for component in parent.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw Failure(operation: "mkdir \(prefix)", code: errno)
            }
        }
    }
}
