import Crypto
import JOSE

/// Recovery codes (Gatehouse's own, as Clerk's; Supabase has none): ten single-use codes a user
/// is shown once, when enrolling their first factor, each good for one `aal2` step without the
/// factor (`Factors.useRecoveryCode`).
///
/// A code is 10 characters of Crockford's base32 in lower case, `xxxxx-xxxxx` (50 random bits
/// from the CSPRNG). Only a keyed digest is stored: HMAC-SHA256 under a key derived (HKDF) from
/// the OTP secret, over the user's id and the code, so a copy of the table alone gives no way
/// to test guesses offline, and a digest moved to another user matches nothing. Online guesses
/// are limited (`Factors.recoveryGuessesPerUser`, `recoveryGuessesPerSource`).
public struct RecoveryCodes: Sendable {
    /// Codes a set holds.
    public static let count = 10
    /// Characters of a code, the dash apart.
    static let length = 10
    /// Crockford's base32 alphabet in lower case: no `i`, `l`, `o` or `u`.
    private static let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)

    private let key: SymmetricKey

    /// The digests' key, derived from `secret`.
    public init(secret: OTPSecret) {
        key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: secret.key, info: Array("gatehouse:recovery-code:v1".utf8), outputByteCount: 32)
    }

    /// `count` fresh codes, `xxxxx-xxxxx`.
    public static func generate() -> [String] {
        (0..<count).map { _ in
            // 256 is a multiple of 32: each byte's low five bits are uniform.
            let characters = RandomToken.bytes(length).map { Character(Unicode.Scalar(alphabet[Int($0 & 31)])) }
            return String(characters.prefix(length / 2)) + "-" + String(characters.suffix(length / 2))
        }
    }

    /// `text` as a code compares: dashes and spaces dropped, lower case, the letters Crockford's
    /// base32 reads as digits (`i`, `l` as 1, `o` as 0) mapped; nil when it cannot be a code.
    public static func normalized(_ text: String) -> String? {
        guard text.utf8.count <= 32 else { return nil }
        var output: [UInt8] = []
        for byte in text.lowercased().utf8 where byte != UInt8(ascii: "-") && byte != UInt8(ascii: " ") {
            switch byte {
            case UInt8(ascii: "i"), UInt8(ascii: "l"): output.append(UInt8(ascii: "1"))
            case UInt8(ascii: "o"): output.append(UInt8(ascii: "0"))
            default:
                guard alphabet.contains(byte) else { return nil }
                output.append(byte)
            }
        }
        guard output.count == length else { return nil }
        return String(decoding: output, as: UTF8.self)
    }

    /// The stored digest of the normalized code `code` of `userID`: base64url of its HMAC.
    func digest(_ code: String, userID: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Array("\(userID):\(code)".utf8), using: key)
        return Base64URL.encode(Array(mac))
    }
}
