import GatehouseJSON
import StoreCore

/// The token of an emailed link (a magic link, an account link): 48 random bytes as 64
/// URL-safe characters, stored only as its SHA-256 (hex), which keys the link's record.
enum LinkToken {
    /// A fresh token and its hash.
    static func make() -> (token: String, hash: String) {
        let token = RandomToken.urlSafe(byteCount: 48)
        return (token, SHA256Hex.of(Array(token.utf8)))
    }

    /// The record key of `token`; nil when it does not have a token's form (so nothing is read).
    static func key(_ token: String) -> ItemKey? {
        guard token.utf8.count == 64, token.utf8.allSatisfy(isURLSafe) else { return nil }
        return ItemKey(.string(SHA256Hex.of(Array(token.utf8))))
    }

    private static func isURLSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}
