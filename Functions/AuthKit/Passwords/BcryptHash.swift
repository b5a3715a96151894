import HummingbirdBcrypt

/// A bcrypt hash brought from another system (Supabase's `encrypted_password`, made by Go's
/// `x/crypto/bcrypt`): `$2a$`, `$2b$` or `$2y$`, a two-digit cost, then 22 characters of salt
/// and 31 of hash in bcrypt's base64. Gatehouse checks one and never makes one: the first good
/// sign-in replaces it with scrypt (`PasswordHasher.check` answers `needsRehash`).
///
/// Checked by hummingbird-auth's `HummingbirdBcrypt` (OpenBSD's C). The three prefixes are one
/// algorithm for passwords shorter than 255 bytes; OpenBSD's `$2a$` differs from Go's above that
/// (its length wraps around), so every hash is checked as `$2b$`, which is what Go computes for
/// all three. That C compares the computed hash with `memcmp`: what the time could tell is how
/// many leading characters of two bcrypt outputs agree, under a salt only the store holds,
/// nothing about the password.
public struct BcryptHash: Sendable, Equatable {
    /// The most a stored hash may cost to try: 2^12 rounds, four times Supabase's default
    /// (10), about twice what a scrypt check at today's cost takes. A tampered or outlandish
    /// hash must not make one sign-in cost seconds of CPU (each step up doubles it).
    public static let maximumCost = 12

    /// log2 of the rounds, 4 to `maximumCost`.
    public let cost: Int
    /// The hash as checked: the same text with the `$2b$` prefix.
    let normalized: String

    /// Why a text is not a hash this code checks.
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        /// Not bcrypt at all (another algorithm, or not a hash).
        case notBcrypt
        /// A bcrypt prefix with a body that is not bcrypt's: length, alphabet or cost field.
        case malformed
        /// Bcrypt costing more than `maximumCost`.
        case tooCostly(Int)

        public var description: String {
            switch self {
            case .notBcrypt: "not a bcrypt hash"
            case .malformed: "a malformed bcrypt hash"
            case .tooCostly(let cost): "bcrypt at cost \(cost), above \(BcryptHash.maximumCost)"
            }
        }
    }

    /// Reads `encoded`; nil when it is not a bcrypt hash this code may check.
    public init?(encoded: String) {
        guard let hash = try? Self(validating: encoded) else { return nil }
        self = hash
    }

    /// Reads `encoded`, saying why when it is not a bcrypt hash this code may check.
    public init(validating encoded: String) throws(Refusal) {
        let bytes = Array(encoded.utf8)
        guard bytes.count >= 4, bytes[0] == UInt8(ascii: "$"), bytes[1] == UInt8(ascii: "2"),
            [UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "y")].contains(bytes[2]), bytes[3] == UInt8(ascii: "$")
        else { throw .notBcrypt }
        guard bytes.count == 60, bytes[6] == UInt8(ascii: "$"), bytes[4...5].allSatisfy(Self.isDigit),
            bytes[7...].allSatisfy(Self.isBcryptBase64)
        else { throw .malformed }
        let cost = Int(bytes[4] - UInt8(ascii: "0")) * 10 + Int(bytes[5] - UInt8(ascii: "0"))
        guard cost >= 4 else { throw .malformed }
        guard cost <= Self.maximumCost else { throw .tooCostly(cost) }
        self.cost = cost
        normalized = "$2b" + String(decoding: bytes[3...], as: UTF8.self)
    }

    /// Whether `password` (its UTF-8 bytes, as Go hashes them; only the first 72 count, as in
    /// every bcrypt) is the one hashed. A password holding a NUL byte, which C cannot pass, is
    /// never right, after the same work.
    public func matches(_ password: String) -> Bool {
        let passable = !password.utf8.contains(0)
        let verified = Bcrypt.verify(passable ? password : "", hash: normalized)
        return verified && passable
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// bcrypt's alphabet: `./A-Za-z0-9`.
    private static func isBcryptBase64(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "/")
    }
}
