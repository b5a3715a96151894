/// Passing over the bytes of a JSON string that need no attention, eight at a time: header
/// values, tokens and bodies are long runs of them, and looking at them one byte at a time was
/// most of the cost of reading and of writing an event.
enum PlainRun {
    /// The first position from `start` on, in steps of eight bytes, where a word holds a quote, a
    /// backslash or a control character, or, with `stoppingAtNonASCII`, a byte of 0x80 or more;
    /// the caller's byte loop takes over there. Each test is exact about whether a word holds
    /// such a byte, so nothing that matters is passed over.
    @inline(__always)
    static func end(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, stoppingAtNonASCII: Bool) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
        var index = start
        guard let base = bytes.baseAddress else { return index }
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            // Some byte below 0x20 (a byte of 0x80 or more never counts as one here).
            let control = (word &- ones &* 0x20) & ~word & highs != 0
            let nonASCII = stoppingAtNonASCII && word & highs != 0
            if control || nonASCII || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C)) {
                break
            }
            index += 8
        }
        return index
    }
}
