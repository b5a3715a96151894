import Foundation
import Testing

@testable import Packaging

/// The checks `gatehouse package` makes, on small C binaries built to violate them.
struct PackageCheckTests {
    @Test func aBinaryNeedingANewerGlibcIsRefusedWithItsSymbol() async throws {
        let folder = try CFixture.folder()
        let binary = folder.appendingPathComponent("hypot").path
        try await CFixture.compile(["hypot.c", "-o", binary, "-lm"])
        let file = try ELFFile(path: binary)
        #expect(file.needed.contains("libm.so.6"))
        let need = try #require(file.versionNeeds.first { $0.symbols.contains("hypot") })
        // This project's build machines have glibc 2.36, where hypot is versioned GLIBC_2.35.
        try #require(
            SymbolVersion(need.version).map { $0 >= SymbolVersion(family: "GLIBC", 2, 35) } == true,
            "this machine's glibc predates hypot@GLIBC_2.35 (\(need.version))")
        let check = PackageCheck(target: .al2023, libraries: SharedLibraries(folders: []))
        #expect {
            try check.check(file, named: "hypot")
        } throws: { error in
            let text = "\(error)"
            return text.contains("provided.al2023 does not have (glibc 2.34)")
                && text.contains("hypot needs \(need.version) of libm.so.6 (hypot)")
        }
    }

    /// A binary linked against Debian's libcurl needs its `CURL_OPENSSL_4` versions, which the
    /// images' libcurl does not define: it would not load there, so it is refused, naming the
    /// library, the version and the symbol. (The functions load libcurl at run time instead.)
    @Test(arguments: LambdaTarget.allCases)
    func aBinaryNeedingDebiansCurlVersionsIsRefused(target: LambdaTarget) async throws {
        let folder = try CFixture.folder()
        let binary = folder.appendingPathComponent("uses-curl").path
        try await CFixture.compile(["uses-curl.c", "-o", binary, "-l:libcurl.so.4"])
        let file = try ELFFile(path: binary)
        let need = try #require(file.versionNeeds.first { $0.symbols.contains("curl_version") })
        #expect(need.library == "libcurl.so.4")
        #expect(need.version == "CURL_OPENSSL_4")
        let check = PackageCheck(target: target, libraries: SharedLibraries(folders: []))
        #expect {
            try check.check(file, named: "uses-curl")
        } throws: { error in
            "\(error)".contains(
                "uses-curl needs CURL_OPENSSL_4 of libcurl.so.4 (curl_version), which \(target.runtime)'s libcurl.so.4 does not define"
            )
        }
    }

    /// The manifest's ceilings are the images' own: glibc 2.34 and 2.26, and the newest
    /// versions of libstdc++ that gcc 11 and gcc 7 define.
    @Test func theManifestsCeilingsAreTheImages() {
        #expect(LambdaTarget.al2023.glibc == SymbolVersion(family: "GLIBC", 2, 34))
        #expect(LambdaTarget.al2.glibc == SymbolVersion(family: "GLIBC", 2, 26))
        #expect(LambdaTarget.al2023.image.libraries["libm.so.6"]?["GLIBC"] == SymbolVersion(family: "GLIBC", 2, 34))
        #expect(LambdaTarget.al2023.image.libraries["libstdc++.so.6"]?["GLIBCXX"] == SymbolVersion("GLIBCXX_3.4.29"))
        #expect(LambdaTarget.al2.image.libraries["libstdc++.so.6"]?["GLIBCXX"] == SymbolVersion("GLIBCXX_3.4.24"))
        #expect(LambdaTarget.al2023.image.libraries["libcurl.so.4"]?.isEmpty == true)
        #expect(!LambdaTarget.al2023.image.provides("libsqlite3.so.0"))
    }

    /// The reader agrees with binutils: every undefined symbol `objdump -T` lists with a
    /// version is one the reader binds to that version.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/objdump")))
    func theReaderAgreesWithObjdump() async throws {
        let folder = try CFixture.folder()
        let binary = folder.appendingPathComponent("hypot").path
        try await CFixture.compile(["hypot.c", "-o", binary, "-lm"])
        var fromObjdump = Set<String>()
        for line in try await CFixture.run("/usr/bin/objdump", ["-T", binary]).split(separator: "\n")
        where line.contains("*UND*") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let version = fields.first(where: { $0.hasPrefix("(") && $0.hasSuffix(")") }), let name = fields.last
            else { continue }
            fromObjdump.insert("\(name)@\(version.dropFirst().dropLast())")
        }
        let fromReader = Set(
            try ELFFile(path: binary).versionNeeds.flatMap { need in need.symbols.map { "\($0)@\(need.version)" } })
        #expect(!fromObjdump.isEmpty)
        #expect(fromReader == fromObjdump)
    }

    /// Runtime/GlibcCompat's wrap, linked as `gatehouse package` links it (lld, --wrap): the
    /// same program now needs nothing newer than al2023 has, and still computes the same.
    @Test func theHypotWrapKeepsABinaryWithinAl2023() async throws {
        let folder = try CFixture.folder()
        let binary = folder.appendingPathComponent("hypot-wrapped").path
        let shim = CFixture.repositoryRoot.appendingPathComponent("Runtime/GlibcCompat/hypot.c").path
        try await CFixture.compile([
            "hypot.c", shim, "-o", binary, "-fuse-ld=lld", "-Wl,--wrap=hypot,--wrap=hypotf", "-lm",
        ])
        let file = try ELFFile(path: binary)
        let outcome = try PackageCheck(target: .al2023, libraries: SharedLibraries(folders: [])).check(
            file, named: "hypot-wrapped")
        #expect(try #require(outcome.glibcFloor) <= SymbolVersion(family: "GLIBC", 2, 34))
        #expect(outcome.bundle.isEmpty)
        // hypot is still called, at the architecture's first glibc version.
        #expect(
            file.versionNeeds.contains {
                $0.symbols.contains("hypot") && SymbolVersion($0.version)! < SymbolVersion(family: "GLIBC", 2, 35)
            })
        #expect(try await CFixture.run(binary, []) == "5.0\n")
        #expect(try await CFixture.run(binary, ["6"]) == "7.2\n")
    }

    /// A library the image lacks is bundled from this machine, its own needs followed; one
    /// that cannot be found stops the package, naming it and who needs it.
    @Test func aLibraryTheImageLacksIsBundledOrRefused() async throws {
        let folder = try CFixture.folder()
        let library = folder.appendingPathComponent("libgatehousemissing.so").path
        try await CFixture.compile([
            "missing.c", "-shared", "-fPIC", "-o", library, "-Wl,-soname,libgatehousemissing.so",
        ])
        let binary = folder.appendingPathComponent("uses-missing").path
        try await CFixture.compile(["uses-missing.c", "-o", binary, "-L\(folder.path)", "-lgatehousemissing"])
        let file = try ELFFile(path: binary)
        #expect(file.needed.contains("libgatehousemissing.so"))

        let found = try PackageCheck(target: .al2023, libraries: SharedLibraries(folders: [folder.path])).check(
            file, named: "uses-missing")
        #expect(found.bundle.map(\.name) == ["libgatehousemissing.so"])
        #expect(found.bundle.map(\.path) == [library])

        #expect(throws: PackageCheckError.missingLibrary("libgatehousemissing.so", by: "uses-missing", target: .al2023))
        {
            try PackageCheck(target: .al2023, libraries: SharedLibraries(folders: [])).check(
                file, named: "uses-missing")
        }
    }

    @Test func whatIsNotAnELFFileIsSaid() {
        #expect(throws: ELFError.notELF) {
            try ELFFile(bytes: Array("#!/bin/sh\necho hi\n".utf8) + Array(repeating: 0, count: 64))
        }
        var header: [UInt8] = [0x7F, 0x45, 0x4C, 0x46, 2, 1] + Array(repeating: 0, count: 58)
        header[0x28] = 0xFF  // section headers far past the end
        header[0x3A] = 64
        header[0x3C] = 1
        #expect(throws: ELFError.truncated) { try ELFFile(bytes: header) }
        #expect(throws: ELFError.unsupported("only 64-bit little-endian ELF files are read")) {
            try ELFFile(bytes: [0x7F, 0x45, 0x4C, 0x46, 1, 1] + Array(repeating: 0, count: 58))
        }
    }

    /// Fields that point anywhere (past the file, past `Int.max`) are errors or are read as
    /// absent, never a crash; the unwind tables are found by their segment or their name.
    @Test func outOfRangeFieldsAreErrorsNotCrashes() async throws {
        let folder = try CFixture.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let binary = folder.appendingPathComponent("missing").path
        try await CFixture.compile(["missing.c", "-shared", "-o", binary])
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: binary)))
        #expect(try ELFFile(bytes: bytes).hasUnwindTables)
        func with(_ at: Int, _ value: [UInt8], in original: [UInt8] = bytes) -> [UInt8] {
            var changed = original
            changed.replaceSubrange(at..<(at + value.count), with: value)
            return changed
        }
        let all = [UInt8](repeating: 0xFF, count: 8)
        #expect(throws: ELFError.truncated) { try ELFFile(bytes: with(0x28, all)) }  // section headers
        #expect(throws: ELFError.truncated) { try ELFFile(bytes: with(0x20, all)) }  // program headers
        // No section-name table: the segment still tells.
        #expect(try ELFFile(bytes: with(0x3E, [0xFF, 0xFF])).hasUnwindTables)
        // Every name far past the file, and no segment either: no tables to be seen.
        let sectionsAt = Int(bytes[0x28]) | Int(bytes[0x29]) << 8 | Int(bytes[0x2A]) << 16 | Int(bytes[0x2B]) << 24
        var unnamed = with(0x38, [0, 0])  // no program headers
        for index in 0..<(Int(bytes[0x3C]) | Int(bytes[0x3D]) << 8) {
            unnamed = with(sectionsAt + index * 64, [0xFF, 0xFF, 0xFF, 0xFF], in: unnamed)
        }
        #expect(try !ELFFile(bytes: unnamed).hasUnwindTables)
    }

    @Test func versionsCompareWithinTheirFamily() {
        #expect(SymbolVersion("GLIBC_2.35") == SymbolVersion(family: "GLIBC", 2, 35))
        #expect(SymbolVersion("GLIBC_2.9")! < SymbolVersion("GLIBC_2.34")!)
        #expect(SymbolVersion("GLIBCXX_3.4.29")! < SymbolVersion("GLIBCXX_3.4.30")!)
        #expect(SymbolVersion("GLIBC_PRIVATE") == nil)
        #expect(SymbolVersion("Base") == nil)
    }
}
