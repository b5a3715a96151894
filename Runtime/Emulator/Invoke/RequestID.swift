#if canImport(Glibc)
import Glibc
#endif

/// Request ids in the shape Lambda and API Gateway use: a random (version 4) UUID in lower case.
///
/// Made from the kernel's generator directly, its 16 bytes in one `getentropy` (one `getrandom`
/// call): Foundation's `UUID()` opened `/dev/urandom` for each one, and
/// `SystemRandomNumberGenerator` asks once per 8 bytes, system calls start-api paid on every
/// request.
public enum RequestID {
    private static let hex = Array("0123456789abcdef".utf8)

    /// A new random id, e.g. `0f6c1c7e-8e4b-4b59-9a3e-2f1d0c5b7a91`.
    public static func make() -> String {
        var words: (UInt64, UInt64) = (0, 0)
        #if canImport(Glibc)
        let filled = withUnsafeMutableBytes(of: &words) { getentropy($0.baseAddress, $0.count) == 0 }
        #else
        let filled = false
        #endif
        guard filled else {
            var generator = SystemRandomNumberGenerator()
            return make(high: generator.next(), low: generator.next())
        }
        return make(high: words.0, low: words.1)
    }

    /// The id made of these 128 bits, with the version and variant bits set.
    public static func make(high: UInt64, low: UInt64) -> String {
        let high = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        let low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        return String(unsafeUninitializedCapacity: 36) { text in
            var position = 0
            for nibble in 0..<32 {
                if nibble == 8 || nibble == 12 || nibble == 16 || nibble == 20 {
                    text[position] = UInt8(ascii: "-")
                    position += 1
                }
                let word = nibble < 16 ? high : low
                text[position] = hex[Int((word >> UInt64(60 - 4 * (nibble % 16))) & 0xF)]
                position += 1
            }
            return position
        }
    }
}
