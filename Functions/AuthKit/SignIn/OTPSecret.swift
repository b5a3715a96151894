import Crypto
import JOSE

/// The server secret phone codes are stored under (an HMAC key): `OTP_SECRET` (at least 32
/// bytes, base64url or base64), or, for local runs, `OTP_SECRET_FILE`, a file of the project's
/// created on first use with 32 random bytes (mode 0600), as the signing keys are.
public struct OTPSecret: Sendable {
    let key: SymmetricKey

    public init(bytes: [UInt8]) throws(SettingsError) {
        guard bytes.count >= 32 else { throw .invalid("OTP_SECRET", "must be at least 32 bytes") }
        key = SymmetricKey(data: bytes)
    }

    /// The secret `environment` configures, or nil when it configures none (`OTP_SECRET` and
    /// `OTP_SECRET_FILE` unset or empty); a malformed one is an error.
    public static func optional(environment: [String: String]) throws -> OTPSecret? {
        let reader = EnvironmentReader(environment: environment)
        guard reader.optional("OTP_SECRET") != nil || reader.optional("OTP_SECRET_FILE") != nil else { return nil }
        return try OTPSecret(environment: environment)
    }

    public init(environment: [String: String]) throws {
        let reader = EnvironmentReader(environment: environment)
        if let text = reader.optional("OTP_SECRET") {
            guard let bytes = Base64URL.decode(Self.unpadded(text)) else {
                throw SettingsError.invalid("OTP_SECRET", "is not base64")
            }
            try self.init(bytes: bytes)
        } else if let path = reader.optional("OTP_SECRET_FILE") {
            let fresh = Array(RandomToken.urlSafe(byteCount: 32).utf8)
            _ = try PrivateFile.createExclusively(path, contents: fresh)
            let text = String(decoding: try PrivateFile.read(path), as: UTF8.self)
            guard let bytes = Base64URL.decode(Self.unpadded(text)) else {
                throw SettingsError.invalid("OTP_SECRET_FILE", "\(path) does not hold base64url")
            }
            try self.init(bytes: bytes)
        } else {
            throw SettingsError.missing("OTP_SECRET")
        }
    }

    /// The hex HMAC-SHA256 of `phone` and `code`: what is stored of a code.
    func digest(phone: PhoneNumber, code: String) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Array("\(phone.value):\(code)".utf8), using: key))
    }

    /// base64 to base64url, without padding or white space.
    private static func unpadded(_ text: String) -> String {
        String(
            text.compactMap { character -> Character? in
                switch character {
                case "+": "-"
                case "/": "_"
                case "=", " ", "\n", "\r", "\t": nil
                default: character
                }
            })
    }
}
