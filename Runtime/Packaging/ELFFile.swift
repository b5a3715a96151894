#if canImport(Glibc)
import Glibc
#endif

/// What a packaging check needs from an ELF binary or shared library: the libraries it loads
/// (`DT_NEEDED`) and the symbol versions it requires of them (`.gnu.version_r`), with the
/// symbols that require each. Only 64-bit little-endian files (x86_64, arm64) are read.
public struct ELFFile: Sendable, Equatable {
    /// One version a library must provide, and the symbols bound to it.
    public struct VersionNeed: Sendable, Equatable {
        /// The library that must provide it: `libc.so.6`.
        public let library: String
        /// `GLIBC_2.34`, `GLIBCXX_3.4.29`, ...
        public let version: String
        /// The undefined symbols bound to this version, sorted.
        public let symbols: [String]
    }

    /// `e_machine`: 62 for x86_64, 183 for arm64.
    public let machine: UInt16
    /// The shared libraries it names, in order.
    public let needed: [String]
    /// Every version it requires, in file order.
    public let versionNeeds: [VersionNeed]
    /// Whether it carries DWARF unwind tables: a `PT_GNU_EH_FRAME` segment, or a section named
    /// `.eh_frame` or `.eh_frame_hdr`.
    public let hasUnwindTables: Bool

    public init(bytes: [UInt8]) throws(ELFError) {
        let file = try Reader(elf: bytes)
        machine = try file.u16(18)
        let sections = try Section.headers(of: file)
        let indexed = try file.hasEHFrameSegment()
        let named = try Section.namesUnwindTables(sections, in: file)
        hasUnwindTables = indexed || named
        func strings(of section: Section) throws(ELFError) -> Section {
            guard section.link < sections.count else { throw .truncated }
            return sections[section.link]
        }

        var needed: [String] = []
        for dynamic in sections where dynamic.type == 6 {  // SHT_DYNAMIC
            let table = try strings(of: dynamic)
            for at in stride(from: dynamic.offset, to: dynamic.offset + dynamic.size - 15, by: 16) {
                let tag = try file.u64(at)
                if tag == 0 { break }  // DT_NULL
                // DT_NEEDED
                if tag == 1 { needed.append(try file.string(table.offset + (try file.withinFile(at + 8)))) }
            }
        }
        self.needed = needed

        // Version indexes (vna_other) to library and version, from .gnu.version_r.
        var versions: [Int: (library: String, version: String)] = [:]
        var order: [Int] = []
        for need in sections where need.type == 0x6fff_fffe {  // SHT_GNU_verneed
            let table = try strings(of: need)
            var at = need.offset
            for _ in 0..<need.info {
                let count = Int(try file.u16(at + 2))
                let library = try file.string(table.offset + Int(try file.u32(at + 4)))
                var aux = at + Int(try file.u32(at + 8))
                for _ in 0..<count {
                    let index = Int(try file.u16(aux + 6)) & 0x7FFF
                    versions[index] = (library, try file.string(table.offset + Int(try file.u32(aux + 8))))
                    order.append(index)
                    let next = Int(try file.u32(aux + 12))
                    if next == 0 { break }
                    aux += next
                }
                let next = Int(try file.u32(at + 12))
                if next == 0 { break }
                at += next
            }
        }

        // Which undefined symbols are bound to which version, from .dynsym and .gnu.version.
        var symbols: [Int: [String]] = [:]
        if let versym = sections.first(where: { $0.type == 0x6fff_ffff }),  // SHT_GNU_versym
            let dynsym = sections.first(where: { $0.type == 11 })  // SHT_DYNSYM
        {
            let table = try strings(of: dynsym)
            let count = min(dynsym.size / 24, versym.size / 2)
            for index in 0..<count {
                let symbol = dynsym.offset + index * 24
                guard try file.u16(symbol + 6) == 0 else { continue }  // defined here: not a need
                let version = Int(try file.u16(versym.offset + index * 2)) & 0x7FFF
                guard versions[version] != nil else { continue }
                symbols[version, default: []].append(try file.string(table.offset + Int(try file.u32(symbol))))
            }
        }
        versionNeeds = order.compactMap { index in
            versions[index].map {
                VersionNeed(library: $0.library, version: $0.version, symbols: (symbols[index] ?? []).sorted())
            }
        }
    }

    /// Reads the file at `path`.
    public init(path: String) throws(ELFError) {
        guard let handle = fopen(path, "rb") else { throw .unreadable(path) }
        defer { fclose(handle) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let read = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, handle) }
            if read == 0 { break }
            bytes += chunk[0..<read]
        }
        try self.init(bytes: bytes)
    }

    struct Section {
        /// Where its name is in the section-name table.
        let name: Int
        let type: UInt32
        let offset: Int
        let size: Int
        let link: Int
        let info: Int

        /// The section header table.
        static func headers(of file: Reader) throws(ELFError) -> [Section] {
            let sectionsAt = try file.withinFile(0x28)
            let sectionSize = Int(try file.u16(0x3A))
            guard sectionSize >= 64 else { throw .truncated }
            var sections: [Section] = []
            for index in 0..<Int(try file.u16(0x3C)) {
                let at = sectionsAt + index * sectionSize
                sections.append(
                    Section(
                        name: Int(try file.u32(at)), type: try file.u32(at + 4), offset: try file.withinFile(at + 24),
                        size: try file.withinFile(at + 32), link: Int(try file.u32(at + 40)),
                        info: Int(try file.u32(at + 44))))
            }
            return sections
        }

        /// Whether a section is named `.eh_frame` or `.eh_frame_hdr`, its name read in place from
        /// the table `e_shstrndx` names; a name outside the file is neither.
        static func namesUnwindTables(_ sections: [Section], in file: Reader) throws(ELFError) -> Bool {
            let index = Int(try file.u16(0x3E))
            guard index > 0, index < sections.count else { return false }
            let table = sections[index].offset
            return sections.contains { section in
                file.holds(".eh_frame\0", at: table + section.name)
                    || file.holds(".eh_frame_hdr\0", at: table + section.name)
            }
        }
    }

    /// Bounds-checked little-endian reads.
    struct Reader {
        let bytes: [UInt8]

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        /// A reader of `bytes` once they begin as a 64-bit little-endian ELF file.
        init(elf bytes: [UInt8]) throws(ELFError) {
            guard bytes.count >= 64, bytes[0] == 0x7F, bytes[1] == 0x45, bytes[2] == 0x4C, bytes[3] == 0x46 else {
                throw .notELF
            }
            guard bytes[4] == 2, bytes[5] == 1 else {
                throw .unsupported("only 64-bit little-endian ELF files are read")
            }
            self.bytes = bytes
        }

        func check(_ at: Int, _ count: Int) throws(ELFError) {
            guard at >= 0, count >= 0, at <= bytes.count - count else { throw .truncated }
        }

        func u16(_ at: Int) throws(ELFError) -> UInt16 {
            try check(at, 2)
            return UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
        }

        func u32(_ at: Int) throws(ELFError) -> UInt32 {
            try check(at, 4)
            return (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * $1) }
        }

        func u64(_ at: Int) throws(ELFError) -> UInt64 {
            try check(at, 8)
            return (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * $1) }
        }

        /// A 64-bit offset or size, as far as the file goes: a larger one (a section that takes
        /// no file space, or a malformed field) stops at the file's end, where reads fail.
        func withinFile(_ at: Int) throws(ELFError) -> Int {
            Int(min(try u64(at), UInt64(bytes.count)))
        }

        /// Whether the bytes of `text` are at `at`.
        func holds(_ text: String, at: Int) -> Bool {
            let wanted = Array(text.utf8)
            guard at >= 0, at <= bytes.count - wanted.count else { return false }
            return bytes[at..<(at + wanted.count)].elementsEqual(wanted)
        }

        /// Whether a program header is `PT_GNU_EH_FRAME`, the index the unwinder looks up.
        func hasEHFrameSegment() throws(ELFError) -> Bool {
            let headersAt = try withinFile(0x20)
            let size = Int(try u16(0x36))
            guard size >= 56 else { return false }
            for index in 0..<Int(try u16(0x38)) where try u32(headersAt + index * size) == 0x6474_e550 {
                return true
            }
            return false
        }

        /// The NUL-terminated string at `at`.
        func string(_ at: Int) throws(ELFError) -> String {
            try check(at, 1)
            guard let end = bytes[at...].firstIndex(of: 0) else { throw .truncated }
            return String(decoding: bytes[at..<end], as: UTF8.self)
        }
    }
}

/// Why a file could not be read as an ELF binary.
public enum ELFError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(String)
    case notELF
    case unsupported(String)
    case truncated

    public var description: String {
        switch self {
        case .unreadable(let path): "cannot read \(path)"
        case .notELF: "not an ELF file"
        case .unsupported(let reason): reason
        case .truncated: "the ELF file is truncated or malformed"
        }
    }
}
