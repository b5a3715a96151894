import Foundation
import Testing

@testable import Packaging

/// `gatehouse package`'s size report: each symbol's bytes counted toward the module or library
/// that defines it, and what no symbol names left as unattributed.
struct ModuleSizesTests {
    @Test(
        arguments: [
            ("$s7NIOCore10ByteBufferV15writeBytesSiyF", "NIOCore"),
            ("_$s7AuthKit14SessionServiceV5startyF", "AuthKit"),
            ("$s20FoundationEssentials4DataV5countSivg", "Foundation"),
            ("$sSS5countSivg", "Swift"),
            ("$ss5print_9separator10terminatoryypd_S2StF", "Swift"),
            ("$s12_RegexParser0B0V21classifyBlockPropertyF", "Swift"),
            ("$s12CryptoExtras01_A8RSAErrorO4hash4intoF", "swift-crypto (BoringSSL)"),
            ("CCryptoBoringSSL_poly_Rq_mul", "swift-crypto (BoringSSL)"),
            ("_ZN6icu_7413UnicodeStringD2Ev", "Foundation (ICU)"),
            ("swift_retain", "Swift runtime"),
            ("_ZL19_swift_stdlib_words", "Swift runtime"),
            ("_ZNSt6thread6_StateD2Ev", "libstdc++"),
            ("_dispatch_queue_attrs", "Dispatch"),
            ("main", "C and other"),
            ("$s", "Swift"),
            ("$s99Short", "Swift"),
        ])
    func eachSymbolCountsTowardItsModule(symbol: String, group: String) {
        #expect(ModuleSizes.group(of: symbol) == group)
    }

    @Test func groupsAreSummedLargestFirstAndTheRestIsUnattributed() {
        let sizes = ModuleSizes(
            symbols: [
                ("$s7NIOCore1aF", 300), ("$s7NIOCore1bF", 200), ("$s7AuthKit1cF", 600), ("swift_retain", 50),
                ("$s7AuthKit1dF", 0),
            ],
            fileBytes: 2_000)
        #expect(
            sizes.groups == [
                .init(name: "AuthKit", bytes: 600), .init(name: "NIOCore", bytes: 500),
                .init(name: "Swift runtime", bytes: 50),
            ])
        #expect(sizes.unattributed == 850)
    }

    /// A real binary: this test's own process, unstripped, names most of its bytes; a file
    /// that is not ELF is refused.
    @Test func aBinaryIsReadFromItsSymbolTable() throws {
        let sizes = try ModuleSizes(binary: "/proc/self/exe")
        #expect(sizes.groups.contains { $0.name == "Packaging" && $0.bytes > 1_000 })
        #expect(sizes.groups.contains { $0.name == "Swift runtime" || $0.name == "Swift" })
        #expect(sizes.groups.reduce(0) { $0 + $1.bytes } + sizes.unattributed == sizes.fileBytes)
        let text = FileManager.default.temporaryDirectory.appendingPathComponent("not-elf-\(UUID().uuidString)")
        try Data("text".utf8).write(to: text)
        defer { try? FileManager.default.removeItem(at: text) }
        #expect(throws: ELFError.notELF) { try ModuleSizes(binary: text.path) }
    }
}
