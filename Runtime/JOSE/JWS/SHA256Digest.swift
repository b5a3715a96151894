import Crypto

/// SHA-256 as plain bytes, for the places that only need the digest's bytes.
enum SHA256Digest {
    static func of(_ bytes: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: bytes))
    }
}
