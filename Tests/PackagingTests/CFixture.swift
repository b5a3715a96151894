import Emulator
import Foundation

/// Small C programs compiled while the tests run, so the binaries the checks refuse are built
/// from the sources beside this file rather than committed.
enum CFixture {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Binaries")
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// A fresh folder for one test's outputs.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("packaging-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The Swift toolchain's clang (beside `swift`, with its lld), else a `clang` or `cc` on PATH.
    static func compiler() throws -> String {
        if let clang = besideSwift("clang") { return clang }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["clang", "cc", "gcc"] {
            for folder in path.split(separator: ":")
            where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        throw CFixtureError.failed("no C compiler (cc, clang or gcc) on PATH")
    }

    /// The Swift toolchain's `swiftc`, beside the `swift` on PATH.
    static func swiftc() throws -> String {
        guard let swiftc = besideSwift("swiftc") else { throw CFixtureError.failed("no swiftc beside a swift on PATH") }
        return swiftc
    }

    /// The toolchain's executable `name`, in the folder the `swift` on PATH really is in.
    private static func besideSwift(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(folder)/swift") {
            let tool = URL(fileURLWithPath: "\(folder)/swift").resolvingSymlinksInPath().deletingLastPathComponent()
                .appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: tool) { return tool }
        }
        return nil
    }

    /// Runs the compiler with `arguments` (sources named relative to Binaries/ are resolved).
    @discardableResult
    static func compile(_ arguments: [String]) async throws -> String {
        let resolved = arguments.map {
            $0.hasSuffix(".c") && !$0.hasPrefix("/") ? sources.appendingPathComponent($0).path : $0
        }
        return try await run(try compiler(), resolved)
    }

    /// Runs `tool` and returns its standard output; throws with its standard error on failure.
    ///
    /// Awaited, never waited for: a compiler run takes a second or more on a busy machine, and
    /// blocking one of Swift's few pool threads for that long starved the servers other tests
    /// run in this process (a JWKS fetch once timed out behind two compilations).
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) async throws -> String {
        let run = try await ChildProcess.capture(tool, arguments)
        guard run.termination.reason == .exited(0) else {
            throw CFixtureError.failed(
                "\(tool) \(arguments.joined(separator: " ")): \(run.termination.lambdaDescription): \(run.standardError)"
            )
        }
        return run.standardOutput
    }
}

enum CFixtureError: Error, CustomStringConvertible {
    case failed(String)
    var description: String {
        switch self {
        case .failed(let message): message
        }
    }
}
