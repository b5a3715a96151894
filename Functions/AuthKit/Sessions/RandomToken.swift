import JOSE

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Secrets and identifiers from the system's CSPRNG: bytes (salts), or URL-safe text.
public enum RandomToken {
    /// `byteCount` (at most 256) random bytes as unpadded base64url (`byteCount * 4 / 3`
    /// characters, rounded up).
    public static func urlSafe(byteCount: Int) -> String {
        Base64URL.encode(bytes(byteCount))
    }

    /// A random (version 4) UUID in lower case, e.g. `0f8fad5b-d9cb-469f-a165-70867728950e`:
    /// 122 random bits, in the form Supabase's clients decode user ids as.
    public static func uuid() -> String {
        var bytes = bytes(16)
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return SHA256Hex.uuid(bytes)
    }

    /// `count` (at most 256) random bytes.
    ///
    /// The bytes come from `getentropy` in one system call. The system generator gives 8 bytes
    /// a call: 12 calls for a refresh token, 96 when it was taken a byte at a time (49 µs).
    public static func bytes(_ count: Int) -> [UInt8] {
        precondition((0...256).contains(count), "getentropy gives at most 256 bytes at a time")
        var bytes = [UInt8](repeating: 0, count: count)
        let filled = bytes.withUnsafeMutableBytes { getentropy($0.baseAddress, count) } == 0
        if !filled {
            // Not expected on Linux ≥ 3.17; the system generator never fails, only costs more.
            var generator = SystemRandomNumberGenerator()
            for index in bytes.indices { bytes[index] = generator.next() }
        }
        return bytes
    }
}
