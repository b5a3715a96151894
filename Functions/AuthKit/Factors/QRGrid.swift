/// The modules of a QR code being drawn: the function patterns (finders, timing, alignment,
/// format and version information), which no data or mask touches, and the data.
struct QRGrid: Sendable {
    let size: Int
    let version: Int
    var dark: [Bool]
    var isFunction: [Bool]

    /// The function patterns of `version`, format information reserved.
    init(version: Int) {
        self.version = version
        size = 17 + 4 * version
        dark = Array(repeating: false, count: size * size)
        isFunction = dark
        for index in 0..<size {
            set(6, index, index % 2 == 0)
            set(index, 6, index % 2 == 0)
        }
        for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] { finder(x, y) }
        let positions = Self.alignmentPositions(version)
        for x in positions {
            for y in positions {
                let last = positions.count - 1
                guard !(x == positions[0] && y == positions[0]), !(x == positions[0] && y == positions[last]),
                    !(x == positions[last] && y == positions[0])
                else { continue }
                alignment(x, y)
            }
        }
        drawFormat(mask: 0)
        drawVersion()
    }

    private mutating func set(_ x: Int, _ y: Int, _ value: Bool) {
        dark[y * size + x] = value
        isFunction[y * size + x] = true
    }

    private mutating func finder(_ x: Int, _ y: Int) {
        for dy in -4...4 {
            for dx in -4...4 where (0..<size).contains(x + dx) && (0..<size).contains(y + dy) {
                let distance = max(abs(dx), abs(dy))
                set(x + dx, y + dy, distance != 2 && distance != 4)
            }
        }
    }

    private mutating func alignment(_ x: Int, _ y: Int) {
        for dy in -2...2 {
            for dx in -2...2 { set(x + dx, y + dy, max(abs(dx), abs(dy)) != 1) }
        }
    }

    /// The centres' coordinates of `version`'s alignment patterns (none for version 1).
    static func alignmentPositions(_ version: Int) -> [Int] {
        guard version > 1 else { return [] }
        let count = version / 7 + 2
        let step = version == 32 ? 26 : (version * 4 + count * 2 + 1) / (count * 2 - 2) * 2
        var result = [6]
        var position = version * 4 + 10
        for _ in 0..<(count - 1) {
            result.insert(position, at: 1)
            position -= step
        }
        return result
    }

    /// The format information (level M, `mask`), both copies, and the dark module.
    mutating func drawFormat(mask: Int) {
        let data = mask  // level M's bits are 00
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
        for index in 0...5 { set(8, index, bit(index)) }
        set(8, 7, bit(6))
        set(8, 8, bit(7))
        set(7, 8, bit(8))
        for index in 9..<15 { set(14 - index, 8, bit(index)) }
        for index in 0..<8 { set(size - 1 - index, 8, bit(index)) }
        for index in 8..<15 { set(8, size - 15 + index, bit(index)) }
        set(8, size - 8, true)
    }

    /// The version information (versions 7 and up), both copies.
    private mutating func drawVersion() {
        guard version >= 7 else { return }
        var remainder = version
        for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
        let bits = version << 12 | remainder
        for index in 0..<18 {
            let value = (bits >> index) & 1 == 1
            let a = size - 11 + index % 3
            let b = index / 3
            set(a, b, value)
            set(b, a, value)
        }
    }

    /// `codewords` placed in the zigzag order, two columns at a time from the right.
    mutating func place(_ codewords: [UInt8]) {
        var index = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            for vertical in 0..<size {
                for offset in 0..<2 {
                    let x = right - offset
                    let upward = (right + 1) & 2 == 0
                    let y = upward ? size - 1 - vertical : vertical
                    guard !isFunction[y * size + x], index < codewords.count * 8 else { continue }
                    dark[y * size + x] = (codewords[index >> 3] >> UInt8(7 - (index & 7))) & 1 == 1
                    index += 1
                }
            }
            right -= 2
        }
    }

    /// This grid with `mask` applied to its data and named in its format information.
    func masked(_ mask: Int) -> QRGrid {
        var result = self
        for y in 0..<size {
            for x in 0..<size where !isFunction[y * size + x] && Self.inverts(mask, x, y) {
                result.dark[y * size + x].toggle()
            }
        }
        result.drawFormat(mask: mask)
        return result
    }

    /// Whether `mask` inverts the module at column `x`, row `y`.
    static func inverts(_ mask: Int, _ x: Int, _ y: Int) -> Bool {
        switch mask {
        case 0: (x + y) % 2 == 0
        case 1: y % 2 == 0
        case 2: x % 3 == 0
        case 3: (x + y) % 3 == 0
        case 4: (x / 3 + y / 2) % 2 == 0
        case 5: x * y % 2 + x * y % 3 == 0
        case 6: (x * y % 2 + x * y % 3) % 2 == 0
        default: ((x + y) % 2 + x * y % 3) % 2 == 0
        }
    }
}
