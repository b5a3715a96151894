import Foundation

/// Strips a binary's symbols and debug information into a copy, with binutils' `strip` or,
/// where that is missing, the toolchain's `llvm-objcopy`.
public enum Stripper {
    /// The stripped bytes of the binary at `path`; the file itself is left as it is.
    public static func strippedBytes(of path: String) throws -> [UInt8] {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("strip-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let (tool, arguments): (String, [String])
        if let strip = which("strip") {
            (tool, arguments) = (strip, ["--strip-all", "-o", copy, path])
        } else if let objcopy = which("llvm-objcopy") {
            (tool, arguments) = (objcopy, ["--strip-all", path, copy])
        } else {
            throw StripError.noTool
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw StripError.failed(tool: tool, message: String(decoding: message, as: UTF8.self))
        }
        return Array(try Data(contentsOf: URL(fileURLWithPath: copy)))
    }

    /// `name` on `PATH`, or next to the `swift` that is on it (the toolchain's own tools).
    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        for folder in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(folder)/swift") {
            let real = URL(fileURLWithPath: "\(folder)/swift").resolvingSymlinksInPath().deletingLastPathComponent()
            let candidate = real.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

/// Why a binary could not be stripped.
public enum StripError: Error, CustomStringConvertible {
    case noTool
    case failed(tool: String, message: String)

    public var description: String {
        switch self {
        case .noTool: "neither strip (binutils) nor llvm-objcopy (the Swift toolchain) was found to strip the binary"
        case .failed(let tool, let message): "\(tool) failed: \(message)"
        }
    }
}
