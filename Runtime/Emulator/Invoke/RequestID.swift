/// Request ids in the shape Lambda and API Gateway use: a random (version 4) UUID in lower case.
///
/// Made from the system generator directly: Foundation's `UUID()` opened `/dev/urandom` for each
/// one, a system call start-api paid on every request.
public enum RequestID {
    private static let hex = Array("0123456789abcdef".utf8)

    /// A new random id, e.g. `0f6c1c7e-8e4b-4b59-9a3e-2f1d0c5b7a91`.
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return make(high: generator.next(), low: generator.next())
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
