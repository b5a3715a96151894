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
}
