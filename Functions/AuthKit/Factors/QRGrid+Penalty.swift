extension QRGrid {
    /// ISO/IEC 18004's penalty of the grid as it is: runs of five or more alike, 2×2 blocks,
    /// finder-like patterns, and how far dark modules are from half.
    var penalty: Int {
        var score = 0
        var darkCount = 0
        for line in 0..<size {
            let row = (0..<size).map { dark[line * size + $0] }
            let column = (0..<size).map { dark[$0 * size + line] }
            score += Self.runPenalty(row) + Self.runPenalty(column)
            score += Self.finderLikePenalty(row) + Self.finderLikePenalty(column)
            darkCount += row.filter { $0 }.count
        }
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) {
                let colour = dark[y * size + x]
                if colour == dark[y * size + x + 1], colour == dark[(y + 1) * size + x],
                    colour == dark[(y + 1) * size + x + 1]
                {
                    score += 3
                }
            }
        }
        let total = size * size
        score += ((abs(darkCount * 20 - total * 10) + total - 1) / total - 1) * 10
        return score
    }

    /// 3 for each run of five alike, and 1 for each module more.
    static func runPenalty(_ line: [Bool]) -> Int {
        var score = 0
        var run = 1
        for index in 1...line.count {
            if index < line.count, line[index] == line[index - 1] {
                run += 1
                continue
            }
            if run >= 5 { score += 3 + run - 5 }
            run = 1
        }
        return score
    }

    /// 40 for each 1:1:3:1:1 dark-light pattern with four light modules on one side.
    static func finderLikePenalty(_ line: [Bool]) -> Int {
        let pattern: [Bool] = [true, false, true, true, true, false, true]
        let light = [Bool](repeating: false, count: 4)
        var score = 0
        for start in 0...(line.count - 11) {
            let window = Array(line[start..<start + 11])
            if window == light + pattern || window == pattern + light { score += 40 }
        }
        return score
    }
}
