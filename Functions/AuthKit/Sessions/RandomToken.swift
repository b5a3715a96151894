import Crypto
import JOSE

/// Secrets and identifiers from a CSPRNG, as URL-safe text.
public enum RandomToken {
    /// `byteCount` random bytes as unpadded base64url (`byteCount * 4 / 3` characters, rounded up).
    ///
    /// The bytes come from BoringSSL's `RAND_bytes` (through `SymmetricKey`) in one call: the
    /// system generator taken a byte at a time cost a `getrandom` system call per byte, 49 µs
    /// for a refresh token.
    public static func urlSafe(byteCount: Int) -> String {
        SymmetricKey(size: .init(bitCount: byteCount * 8)).withUnsafeBytes { Base64URL.encode($0) }
    }
}
