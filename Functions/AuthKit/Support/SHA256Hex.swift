import Crypto

/// SHA-256 digests as lower-case hex: how refresh tokens are stored and how request bodies
/// are named in S2S assertions and `x-amz-content-sha256`.
public enum SHA256Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// The 64-character lower-case hex SHA-256 of `bytes`.
    public static func of(_ bytes: some Sequence<UInt8>) -> String {
        var hasher = SHA256()
        let hashed: Void? = bytes.withContiguousStorageIfAvailable {
            hasher.update(bufferPointer: UnsafeRawBufferPointer($0))
        }
        if hashed == nil { hasher.update(data: Array(bytes)) }
        return hex(hasher.finalize())
    }

    /// `bytes` as lower-case hex, two digits a byte.
    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let bytes = Array(bytes)
        return String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            var index = 0
            for byte in bytes {
                buffer[index] = digits[Int(byte >> 4)]
                buffer[index + 1] = digits[Int(byte & 0x0f)]
                index += 2
            }
            return index
        }
    }

    /// 16 bytes as a UUID's text, lower-case hex grouped 8-4-4-4-12 (a random id's, an
    /// authenticator's AAGUID); any other count as plain hex.
    public static func uuid(_ bytes: [UInt8]) -> String {
        let hex = hex(bytes)
        guard bytes.count == 16 else { return hex }
        var text = ""
        for (index, character) in hex.enumerated() {
            if [8, 12, 16, 20].contains(index) { text.append("-") }
            text.append(character)
        }
        return text
    }

    /// Whether `text` has the form of one: 64 lower-case hex digits.
    public static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
