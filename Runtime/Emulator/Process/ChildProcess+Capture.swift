import Foundation

extension ChildProcess {
    /// What a short-lived tool printed, and how it ended.
    public struct Captured: Sendable {
        public let termination: Termination
        public let standardOutput: String
        public let standardError: String
    }

    /// Runs `executable` to its end with `environment` (this process's unless told), its output
    /// captured in files (so a chatty tool never fills a pipe nobody reads) and awaited, not
    /// waited for: no thread of Swift's shared pool is held while the tool runs.
    public static func capture(
        _ executable: String, _ arguments: [String], directory: String = FileManager.default.currentDirectoryPath,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> Captured {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("capture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("stdout").path
        let errors = folder.appendingPathComponent("stderr").path
        let process = try ChildProcess(
            executable: executable, arguments: arguments, environment: environment,
            directory: directory, output: .file(output), error: .file(errors)
        )
        let termination = await process.terminated()
        return Captured(
            termination: termination,
            standardOutput: (try? String(contentsOfFile: output, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        )
    }
}
