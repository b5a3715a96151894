/// Where a binary's bytes go, by module: the sizes of its named code and data (the ELF symbol
/// table of the binary before it is stripped), grouped by the module each symbol comes from:
/// the Swift module of a mangled Swift name, or a library told by its C or C++ names (BoringSSL,
/// ICU, the Swift runtime, libstdc++). What no symbol names (unwind tables, string literals,
/// relocations) is `unattributed`, so the groups add up to the file.
public struct ModuleSizes: Sendable, Equatable {
    /// One group: a module or a library, and the bytes of its symbols.
    public struct Group: Sendable, Equatable {
        public let name: String
        public let bytes: Int
    }

    /// The groups, largest first.
    public let groups: [Group]
    /// The file's size.
    public let fileBytes: Int

    /// The file's bytes no symbol accounts for.
    public var unattributed: Int { max(0, fileBytes - groups.reduce(0) { $0 + $1.bytes }) }

    /// Groups `symbols` (name and size) of a file of `fileBytes`.
    public init(symbols: [(name: String, size: Int)], fileBytes: Int) {
        var totals: [String: Int] = [:]
        for symbol in symbols where symbol.size > 0 { totals[Self.group(of: symbol.name), default: 0] += symbol.size }
        groups = totals.map { Group(name: $0.key, bytes: $0.value) }
            .sorted { $0.bytes != $1.bytes ? $0.bytes > $1.bytes : $0.name < $1.name }
        self.fileBytes = fileBytes
    }

    /// The sizes of the binary at `path`, from its symbol table (`SHT_SYMTAB`); a stripped file
    /// has none, and is all `unattributed`. `strippedBytes`: the size of the file as shipped,
    /// which the groups are shares of (default: the file's own size).
    public init(binary path: String, strippedBytes: Int? = nil) throws(ELFError) {
        let file = try ELFFile.Contents(path: path)
        self.init(symbols: try file.definedSymbols(), fileBytes: strippedBytes ?? file.bytes.count)
    }

    /// The group a symbol's bytes count toward.
    static func group(of symbol: String) -> String {
        var name = Substring(symbol)
        if name.hasPrefix("_") && name.dropFirst().hasPrefix("$s") { name = name.dropFirst() }
        if name.hasPrefix("$s") { return swiftModule(name.dropFirst(2)).map(family) ?? "Swift" }
        for (prefix, group) in cPrefixes where name.hasPrefix(prefix) { return group }
        // The runtime's own C++ tables: `_ZL19_swift_stdlib_words`, `_ZN12_GLOBAL__N_117swiftBacktraceEnvE`.
        if name.contains("_swift_stdlib") || name.contains("swiftBacktrace") { return "Swift runtime" }
        return "C and other"
    }

    /// C and C++ names by the library that defines them.
    static let cPrefixes: [(String, String)] = [
        ("CCryptoBoringSSL_", "swift-crypto (BoringSSL)"), ("_ZL24ecp_nistz256", "swift-crypto (BoringSSL)"),
        ("Keccak", "swift-crypto (BoringSSL)"), ("_ZN6icu_", "Foundation (ICU)"), ("icudt", "Foundation (ICU)"),
        ("_ZN5swift", "Swift runtime"), ("swift_", "Swift runtime"), ("_swift_", "Swift runtime"),
        ("_ZNSt", "libstdc++"), ("_ZSt", "libstdc++"), ("__cxx", "libstdc++"), ("CF", "Foundation"),
        ("__CF", "Foundation"), ("_CF", "Foundation"), ("_dispatch", "Dispatch"), ("dispatch_", "Dispatch"),
    ]

    /// The module a mangled Swift name (after `$s`) starts with: `<length><identifier>`, or a
    /// standard-library substitution (`S…`, `s…`), which is `Swift`.
    static func swiftModule(_ rest: Substring) -> String? {
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard let length = Int(digits), length > 0 else { return nil }
        let identifier = rest.dropFirst(digits.count).prefix(length)
        return identifier.count == length ? String(identifier) : nil
    }

    /// A module's group: the runtime's and Foundation's modules together, every other module
    /// (NIOCore, GatehouseJSON, AuthKit, …) by its own name.
    static func family(_ module: String) -> String {
        switch module {
        case "Swift", "_Concurrency", "_StringProcessing", "_RegexParser", "Synchronization", "SwiftShims",
            "Distributed", "Observation", "_SwiftConcurrencyShims":
            "Swift"
        case "FoundationEssentials", "FoundationInternationalization", "Foundation", "_FoundationCollections",
            "_FoundationUnicode", "FoundationNetworking":
            "Foundation"
        case "Crypto", "_CryptoExtras", "CryptoExtras", "CryptoBoringWrapper", "CCryptoBoringSSL",
            "CCryptoBoringSSLShims":
            "swift-crypto (BoringSSL)"
        default: module
        }
    }
}
