import Emulator
import Foundation
import Testing

@testable import Packaging

/// Packaged builds link without unwind tables (`UnwindTables`): a Swift program built that way
/// still throws, catches, awaits, and fails with its message and the same signal.
struct UnwindTablesTests {
    @Test func aSwiftProgramLinkedWithoutUnwindTablesBehavesAsBefore() async throws {
        let folder = try CFixture.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = CFixture.sources.appendingPathComponent("fails-as-asked.swift").path
        let swiftc = try CFixture.swiftc()
        let (plain, packaged) = try await Self.buildBothWays(in: folder) {
            try await CFixture.run(swiftc, ["-static-stdlib", "-use-ld=lld", source] + $0)
        }
        let script = UnwindTables.scriptPath(packageDirectory: folder.path)
        #expect(try String(contentsOfFile: script, encoding: .utf8) == UnwindTables.discardingScript)

        #expect(try ELFFile(path: plain).hasUnwindTables)
        #expect(try !ELFFile(path: packaged).hasUnwindTables)
        let sizes = try [plain, packaged].map { try FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int }
        #expect(try #require(sizes[1]) < #require(sizes[0]))

        for binary in [plain, packaged] {
            let ran = try await ChildProcess.capture(binary, [])
            #expect(ran.termination.reason == .exited(0))
            #expect(ran.standardOutput == "caught Refused()\nawaited 2\njoined\ndone\n")
        }
        let before = try await ChildProcess.capture(plain, ["fail"])
        let after = try await ChildProcess.capture(packaged, ["fail"])
        #expect(before.termination.reason != .exited(0))
        #expect(after.termination.reason == before.termination.reason)
        #expect(after.standardError.contains("Fatal error: failing as asked"))
    }

    /// A program that catches a C++ exception cannot do without the tables: built without them
    /// its throw ends the process, and packaging such a binary is refused, naming why.
    @Test func aBinaryThatCatchesCxxExceptionsIsRefused() async throws {
        let folder = try CFixture.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = CFixture.sources.appendingPathComponent("catches.cpp").path
        let (plain, packaged) = try await Self.buildBothWays(in: folder) {
            try await CFixture.compile(["-x", "c++", source, "-lstdc++", "-fuse-ld=lld"] + $0)
        }

        let caught = try await ChildProcess.capture(plain, [])
        #expect(caught.standardOutput == "caught thrown\n")
        let ended = try await ChildProcess.capture(packaged, [])
        #expect(ended.termination.reason == .signaled(SIGABRT))
        #expect(ended.standardError.contains("terminate called"))

        let packager = FunctionPackager(target: .al2023, output: folder.appendingPathComponent("dist").path)
        _ = try packager.package(name: "Plain", binary: plain)
        #expect(throws: UnwindTablesError.catchesCxxExceptions("Packaged")) {
            try packager.package(name: "Packaged", binary: packaged)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("dist/Packaged.zip").path))
    }

    /// Builds twice into `folder` with `build`, given the output's arguments: as it is, and with
    /// the packaged builds' linker arguments (swiftc and clang both take `-Xlinker`).
    static func buildBothWays(
        in folder: URL, _ build: ([String]) async throws -> Void
    ) async throws -> (plain: String, packaged: String) {
        let script = try UnwindTables.write(packageDirectory: folder.path)
        let plain = folder.appendingPathComponent("plain").path
        let packaged = folder.appendingPathComponent("packaged").path
        try await build(["-o", plain])
        try await build(UnwindTables.linkerArguments(script: script) + ["-o", packaged])
        return (plain, packaged)
    }
}
