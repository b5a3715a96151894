import Crypto
import JOSE

/// Seals TOTP secrets for the store: AES-256-GCM under a key derived (HKDF-SHA256) from the OTP
/// secret the functions already hold (`OTPSecret`), bound to the factor's user and id as
/// associated data, so a sealed secret moved to another factor does not open. What is stored is
/// base64url of the nonce, the ciphertext and the tag; the plain secret is never stored or logged.
public struct FactorSecretBox: Sendable {
    private let key: SymmetricKey

    /// The box whose key is derived from `secret`.
    public init(secret: OTPSecret) {
        key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: secret.key, info: Array("gatehouse:totp-factor-secret:v1".utf8), outputByteCount: 32)
    }

    /// `plain` sealed for `userID`'s factor `factorID`.
    public func seal(_ plain: [UInt8], userID: String, factorID: String) throws -> String {
        let box = try AES.GCM.seal(plain, using: key, authenticating: Self.context(userID, factorID))
        guard let combined = box.combined else { throw FactorError.secretUnreadable }
        return Base64URL.encode(Array(combined))
    }

    /// The secret `sealed` holds for `userID`'s factor `factorID`: `FactorError.secretUnreadable`
    /// when it was sealed for another factor, under another key, or changed.
    public func open(_ sealed: String, userID: String, factorID: String) throws -> [UInt8] {
        do {
            guard let bytes = Base64URL.decode(sealed) else { throw FactorError.secretUnreadable }
            let box = try AES.GCM.SealedBox(combined: bytes)
            return Array(try AES.GCM.open(box, using: key, authenticating: Self.context(userID, factorID)))
        } catch {
            throw FactorError.secretUnreadable
        }
    }

    private static func context(_ userID: String, _ factorID: String) -> [UInt8] {
        Array("\(userID):\(factorID)".utf8)
    }
}
