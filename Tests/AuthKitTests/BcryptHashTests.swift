import Foundation
import Testing

@testable import AuthKit

/// Imported bcrypt hashes: checked against known vectors, refused when malformed or too costly,
/// and redone with scrypt at the first good check.
struct BcryptHashTests {
    /// Openwall's crypt_blowfish vectors (also OpenBSD's and Go's), and two made by Python's
    /// bcrypt with a fixed salt: letters beyond ASCII, and a password past bcrypt's 72 bytes.
    static let vectors: [(hash: String, password: String)] = [
        ("$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW", "U*U"),
        ("$2a$05$CCCCCCCCCCCCCCCCCCCCC.VGOzA784oUp/Z0DY336zx7pLYAy0lwK", "U*U*"),
        ("$2a$05$XXXXXXXXXXXXXXXXXXXXXOAcXxm9kjPGEMsLznoKqmqw7tc8WCx4a", "U*U*U"),
        (
            "$2a$05$abcdefghijklmnopqrstuu5s2v8.iXieOjg/.AySBTTZIIVFJeBui",
            "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789chars after 72 are ignored"
        ),
        ("$2a$05$CCCCCCCCCCCCCCCCCCCCC.7uG0VCzI2bS7j6ymqJi9CdcdxiRTWNy", ""),
        ("$2b$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW", "U*U"),
        ("$2y$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW", "U*U"),
        ("$2a$04$abcdefghijklmnopqrstuugKIrUD7YU/fQfE7r8rTC.gKX2FTtmFq", "Moved user 9 ünïcødé"),
        // Only the first 72 bytes count, also for $2a$ past 255 bytes (where OpenBSD's own
        // $2a$ wraps around and Go's does not): checked as Go checks it.
        ("$2a$04$abcdefghijklmnopqrstuubzadhGtS2zEF.gu0yd0opP6cVzb.e0i", String(repeating: "x", count: 300)),
    ]

    @Test func knownVectorsMatchAndNothingElseDoes() throws {
        for (hash, password) in Self.vectors {
            let bcrypt = try #require(BcryptHash(encoded: hash), "\(hash)")
            #expect(bcrypt.matches(password), "\(hash)")
            // Past 72 bytes nothing counts: change the first character instead.
            let other = password.utf8.count < 72 ? password + "!" : "y" + password.dropFirst()
            #expect(!bcrypt.matches(other), "\(hash)")
            #expect(!bcrypt.matches("U*U*U*"), "\(hash)")
        }
        // A NUL that C would cut the password at is never right, whatever precedes it.
        #expect(!BcryptHash(encoded: Self.vectors[0].hash)!.matches("U*U\u{0}tail"))
    }

    @Test func onlyWellFormedBcryptAtACostWorthTryingIsRead() throws {
        let good = Self.vectors[0].hash
        #expect(try BcryptHash(validating: good).cost == 5)
        #expect(throws: BcryptHash.Refusal.notBcrypt) { try BcryptHash(validating: "$scrypt$ln=10,r=8,p=1$a$b") }
        #expect(throws: BcryptHash.Refusal.notBcrypt) { try BcryptHash(validating: "$2x$05$" + good.dropFirst(7)) }
        #expect(throws: BcryptHash.Refusal.notBcrypt) {
            try BcryptHash(validating: "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA")
        }
        #expect(throws: BcryptHash.Refusal.malformed) { try BcryptHash(validating: String(good.dropLast())) }
        #expect(throws: BcryptHash.Refusal.malformed) {
            try BcryptHash(validating: good.replacingOccurrences(of: "C", with: "+"))
        }
        #expect(throws: BcryptHash.Refusal.malformed) { try BcryptHash(validating: "$2a$03$" + good.dropFirst(7)) }
        #expect(throws: BcryptHash.Refusal.malformed) { try BcryptHash(validating: "$2a$x5$" + good.dropFirst(7)) }
        // 2^13 rounds and up would let one stored hash cost a sign-in seconds.
        #expect(try BcryptHash(validating: "$2a$12$" + good.dropFirst(7)).cost == 12)
        #expect(throws: BcryptHash.Refusal.tooCostly(13)) { try BcryptHash(validating: "$2a$13$" + good.dropFirst(7)) }
        #expect(throws: BcryptHash.Refusal.tooCostly(31)) { try BcryptHash(validating: "$2b$31$" + good.dropFirst(7)) }
    }

    /// The hasher checks an imported hash and always asks for it to be redone; a costly or
    /// malformed one is a mismatch after a full scrypt's work, as any text that is not a hash.
    @Test func theHasherChecksBcryptAndAsksForScrypt() throws {
        let hasher = PasswordHasher(parameters: ScryptParameters(logN: 10, r: 8, p: 1))
        let (hash, password) = Self.vectors[2]
        #expect(try hasher.check(password, against: hash) == .matches(needsRehash: true))
        #expect(try hasher.check("U*U", against: hash) == .mismatch)
        #expect(try hasher.check(password, against: "$2a$31$" + hash.dropFirst(7)) == .mismatch)
        let redone = try hasher.hash(password).description
        #expect(redone.hasPrefix("$scrypt$ln=10,r=8,p=1$"))
        #expect(try hasher.check(password, against: redone) == .matches(needsRehash: false))
    }
}
