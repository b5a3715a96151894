import Crypto

/// RFC 6238 time-based one-time passwords as authenticator apps make them: HMAC-SHA-1, 6 digits,
/// a 30-second step counted from 1970 (RFC 4226's dynamic truncation).
public enum TOTP {
    /// Seconds per step.
    public static let period: Double = 30
    /// Digits per code.
    public static let digits = 6
    /// Steps either side of now whose code is accepted (a clock one step off still works).
    public static let skew: Int64 = 1

    /// The step `time` (seconds since 1970) falls in.
    public static func step(at time: Double) -> Int64 {
        Int64((time / period).rounded(.down))
    }

    /// The code of `step` for `secret`, `digits` long with leading zeros.
    public static func code(secret: [UInt8], step: Int64, digits: Int = TOTP.digits) -> String {
        var counter = [UInt8](repeating: 0, count: 8)
        for index in 0..<8 { counter[7 - index] = UInt8(truncatingIfNeeded: UInt64(bitPattern: step) >> (8 * index)) }
        let mac = Array(
            HMAC<Insecure.SHA1>.authenticationCode(for: counter, using: SymmetricKey(data: secret)))
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let value =
            (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8)
            | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let text = String(value % modulus)
        return String(repeating: "0", count: digits - text.count) + text
    }

    /// The step whose code `code` is, among now's and `skew` either side (`time` in seconds since
    /// 1970), or nil. Every candidate is compared in constant time, so the time taken does not
    /// tell which step matched, or where a wrong code differs.
    public static func matchingStep(_ code: String, secret: [UInt8], at time: Double) -> Int64? {
        let now = step(at: time)
        var found: Int64?
        for candidate in (now - skew)...(now + skew) {
            let matches = ConstantTime.equal(Array(code.utf8), Array(self.code(secret: secret, step: candidate).utf8))
            if matches, found == nil { found = candidate }
        }
        return found
    }
}
