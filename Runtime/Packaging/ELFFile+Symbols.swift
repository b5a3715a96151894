import Foundation

extension ELFFile {
    /// A file's bytes and section headers, for reading its symbol table.
    struct Contents {
        let bytes: [UInt8]
        let sections: [Section]

        init(path: String) throws(ELFError) {
            guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path) }
            try self.init(bytes: Array(data))
        }

        init(bytes: [UInt8]) throws(ELFError) {
            let sections = try Section.headers(of: Reader(elf: bytes))
            self.bytes = bytes
            self.sections = sections
        }

        /// The functions, data objects and thread-locals the symbol table (`SHT_SYMTAB`) defines,
        /// with their sizes; none in a stripped file.
        func definedSymbols() throws(ELFError) -> [(name: String, size: Int)] {
            let file = Reader(bytes: bytes)
            var symbols: [(name: String, size: Int)] = []
            for table in sections where table.type == 2 {  // SHT_SYMTAB
                guard table.link < sections.count else { throw .truncated }
                let names = sections[table.link]
                for at in stride(from: table.offset, to: table.offset + table.size - 23, by: 24) {
                    let kind = bytes[at + 4] & 0xF
                    // OBJECT, FUNC or TLS, defined here (a section index).
                    guard [1, 2, 6].contains(kind), try file.u16(at + 6) != 0 else { continue }
                    let size = try file.withinFile(at + 16)
                    guard size > 0 else { continue }
                    symbols.append((try file.string(names.offset + Int(try file.u32(at))), size))
                }
            }
            return symbols
        }
    }
}
