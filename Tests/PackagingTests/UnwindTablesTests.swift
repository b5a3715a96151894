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
        let script = try UnwindTables.write(packageDirectory: folder.path)
        #expect(try String(contentsOfFile: script, encoding: .utf8) == UnwindTables.discardingScript)
        let source = CFixture.sources.appendingPathComponent("fails-as-asked.swift").path
        let plain = folder.appendingPathComponent("plain").path
        let packaged = folder.appendingPathComponent("packaged").path
        let swiftc = try CFixture.swiftc()
        let common = ["-static-stdlib", "-use-ld=lld", source]
        try await CFixture.run(swiftc, common + ["-o", plain])
        try await CFixture.run(swiftc, common + UnwindTables.linkerArguments(script: script) + ["-o", packaged])

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
        let script = try UnwindTables.write(packageDirectory: folder.path)
        let source = CFixture.sources.appendingPathComponent("catches.cpp").path
        let plain = folder.appendingPathComponent("plain").path
        let packaged = folder.appendingPathComponent("packaged").path
        let common = ["-x", "c++", source, "-lstdc++", "-fuse-ld=lld"]
        try await CFixture.compile(common + ["-o", plain])
        try await CFixture.compile(
            common + ["-Wl,--no-eh-frame-hdr", "-Wl,\(script)", "-o", packaged])

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
}
