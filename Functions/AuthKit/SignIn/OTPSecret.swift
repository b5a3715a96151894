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
    /// The six-digit code of `phone`'s issue `issue` (a random id stored beside it): the first
    /// 64 bits of an HMAC under this secret, modulo a million (a bias below 2^-44). The store
    /// holds only the issue; the code can be made again, to text the same code again, only here.
    func code(phone: PhoneNumber, issue: String) -> String {
        let mac = Array(
            HMAC<SHA256>.authenticationCode(for: Array("phone-code:\(phone.value):\(issue)".utf8), using: key))
        let value = mac.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return PhoneCodes.sixDigits(UInt32(value % 1_000_000))
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
