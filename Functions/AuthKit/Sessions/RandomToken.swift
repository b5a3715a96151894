import JOSE

/// Secrets and identifiers from the system's CSPRNG, as URL-safe text.
public enum RandomToken {
    /// `byteCount` random bytes as unpadded base64url (`byteCount * 4 / 3` characters, rounded up).
    public static func urlSafe(byteCount: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<byteCount).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
