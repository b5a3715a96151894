/// A QR code (ISO/IEC 18004, model 2) of bytes: byte mode, error correction level M, the
/// smallest version (1 to 40) that holds them, and the mask of lowest penalty (or the one
/// given). What an authenticator app scans from an enrolment's `otpauth://` URI.
public struct QRCode: Sendable, Equatable {
    /// Modules per side (17 + 4 × version).
    public let size: Int
    /// 1 to 40.
    public let version: Int
    /// 0 to 7.
    public let mask: Int
    /// Row by row, true for a dark module.
    public let modules: [Bool]

    /// Whether the module at column `x`, row `y` is dark.
    public subscript(x: Int, y: Int) -> Bool { modules[y * size + x] }

    /// The code of `bytes`; nil when they are more than version 40 holds at level M (2,331).
    /// `mask` forces one (0 to 7) instead of the lowest penalty's.
    public init?(bytes: [UInt8], mask forced: Int? = nil) {
        guard let version = (1...40).first(where: { Self.fits(bytes.count, version: $0) }) else { return nil }
        let codewords = Self.codewords(Self.dataCodewords(bytes, version: version), version: version)
        var grid = QRGrid(version: version)
        grid.place(codewords)
        let chosen = forced ?? (0..<8).min { grid.masked($0).penalty < grid.masked($1).penalty }!
        let final = grid.masked(chosen)
        self.version = version
        size = final.size
        mask = chosen
        modules = final.dark
    }

    /// Each version's error correction codewords per block, and its blocks: (count, data
    /// codewords each), at level M.
    static let levelM: [(ec: Int, groups: [(Int, Int)])] = [
        (10, [(1, 16)]), (16, [(1, 28)]), (26, [(1, 44)]), (18, [(2, 32)]), (24, [(2, 43)]), (16, [(4, 27)]),
        (18, [(4, 31)]), (22, [(2, 38), (2, 39)]), (22, [(3, 36), (2, 37)]), (26, [(4, 43), (1, 44)]),
        (30, [(1, 50), (4, 51)]), (22, [(6, 36), (2, 37)]), (22, [(8, 37), (1, 38)]), (24, [(4, 40), (5, 41)]),
        (24, [(5, 41), (5, 42)]), (28, [(7, 45), (3, 46)]), (28, [(10, 46), (1, 47)]), (26, [(9, 43), (4, 44)]),
        (26, [(3, 44), (11, 45)]), (26, [(3, 41), (13, 42)]), (26, [(17, 42)]), (28, [(17, 46)]),
        (28, [(4, 47), (14, 48)]), (28, [(6, 45), (14, 46)]), (28, [(8, 47), (13, 48)]), (28, [(19, 46), (4, 47)]),
        (28, [(22, 45), (3, 46)]), (28, [(3, 45), (23, 46)]), (28, [(21, 45), (7, 46)]), (28, [(19, 47), (10, 48)]),
        (28, [(2, 46), (29, 47)]), (28, [(10, 46), (23, 47)]), (28, [(14, 46), (21, 47)]), (28, [(14, 46), (23, 47)]),
        (28, [(12, 47), (26, 48)]), (28, [(6, 47), (34, 48)]), (28, [(29, 46), (14, 47)]), (28, [(13, 46), (32, 47)]),
        (28, [(40, 47), (7, 48)]), (28, [(18, 47), (31, 48)]),
    ]

    /// Data codewords of `version` at level M.
    static func capacity(_ version: Int) -> Int {
        levelM[version - 1].groups.reduce(0) { $0 + $1.0 * $1.1 }
    }

    /// Whether `count` bytes fit `version` in byte mode (a 4-bit mode, an 8- or 16-bit count).
    static func fits(_ count: Int, version: Int) -> Bool {
        4 + (version < 10 ? 8 : 16) + 8 * count <= 8 * capacity(version)
    }

    /// The data codewords: mode, count, the bytes, the terminator, and the pad bytes.
    static func dataCodewords(_ bytes: [UInt8], version: Int) -> [UInt8] {
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) {
            for index in (0..<count).reversed() { bits.append((value >> index) & 1 == 1) }
        }
        append(0b0100, 4)
        append(bytes.count, version < 10 ? 8 : 16)
        for byte in bytes { append(Int(byte), 8) }
        let capacityBits = 8 * capacity(version)
        append(0, min(4, capacityBits - bits.count))
        append(0, (8 - bits.count % 8) % 8)
        var codewords = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
        var pad: UInt8 = 0xEC
        while codewords.count < capacity(version) {
            codewords.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        return codewords
    }

    /// `data` split into the version's blocks, each with its Reed–Solomon codewords, interleaved.
    static func codewords(_ data: [UInt8], version: Int) -> [UInt8] {
        let (ec, groups) = levelM[version - 1]
        var blocks: [[UInt8]] = []
        var offset = 0
        for (count, length) in groups {
            for _ in 0..<count {
                blocks.append(Array(data[offset..<offset + length]))
                offset += length
            }
        }
        let divisor = ReedSolomon.divisor(degree: ec)
        let corrections = blocks.map { ReedSolomon.remainder($0, divisor: divisor) }
        var result: [UInt8] = []
        for index in 0..<(blocks.map(\.count).max() ?? 0) {
            for block in blocks where index < block.count { result.append(block[index]) }
        }
        for index in 0..<ec {
            for correction in corrections { result.append(correction[index]) }
        }
        return result
    }
}
