import Foundation
import Testing

@testable import AuthKit

/// Password hashing (scrypt, RFC 7914's vectors) and the policy for new passwords.
struct PasswordsTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// RFC 7914 §12: the parameters reach scrypt in the right places (N, r, p are easy to swap).
    @Test func scryptReproducesRFC7914() throws {
        let empty = try PasswordHasher.derive(
            [], salt: [], parameters: ScryptParameters(logN: 4, r: 1, p: 1), length: 64)
        #expect(
            Self.hex(empty)
                == "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906"
        )
        let nacl = try PasswordHasher.derive(
            Array("password".utf8), salt: Array("NaCl".utf8), parameters: ScryptParameters(logN: 10, r: 8, p: 16),
            length: 64)
        #expect(
            Self.hex(nacl)
                == "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"
        )
    }

    @Test func aHashChecksItsPasswordOnlyAndCarriesItsParameters() throws {
        let hasher = PasswordHasher(parameters: ScryptParameters(logN: 10, r: 8, p: 1))
        let stored = try hasher.hash("correct horse battery staple").description
        #expect(stored.hasPrefix("$scrypt$ln=10,r=8,p=1$"))
        #expect(PasswordHash(encoded: stored)?.salt.count == 16)
        #expect(try hasher.check("correct horse battery staple", against: stored) == .matches(needsRehash: false))
        #expect(try hasher.check("correct horse battery stapler", against: stored) == .mismatch)
        #expect(try hasher.check("", against: stored) == .mismatch)
        // The same password twice: two salts, two hashes.
        #expect(try hasher.hash("same").description != (try hasher.hash("same").description))
        // Today's cost is higher than the hash's: right, and to be redone.
        let stronger = PasswordHasher(parameters: ScryptParameters(logN: 11, r: 8, p: 1))
        #expect(try stronger.check("correct horse battery staple", against: stored) == .matches(needsRehash: true))
    }

    @Test func aStoredTextThatIsNotAHashIsAMismatchNeverACrash() throws {
        let hasher = PasswordHasher(parameters: ScryptParameters(logN: 10, r: 8, p: 1))
        let good = try hasher.hash("pw").description
        for broken in [
            "", "plain", "$scrypt$", "$bcrypt$ln=10,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAA",
            good.replacingOccurrences(of: "ln=10", with: "ln=30"),  // minutes of work, refused
            good.replacingOccurrences(of: "r=8", with: "r=16,x=1"),
            String(good.dropLast(4)),  // a key that is not 32 bytes
        ] {
            #expect(PasswordHash(encoded: broken) == nil, "\(broken)")
            #expect(try hasher.check("pw", against: broken) == .mismatch)
        }
    }

    @Test func thePolicyRefusesShortCommonAndOwnAddressPasswords() throws {
        let policy = PasswordPolicy()
        #expect(policy.weaknesses(of: "tr0ub4dor&3 horse", email: "ada@example.com").isEmpty)
        #expect(policy.weaknesses(of: "short", email: nil) == [.length])
        #expect(policy.weaknesses(of: String(repeating: "é", count: 129), email: nil) == [.length])  // 258 bytes
        #expect(policy.weaknesses(of: "password1", email: nil) == [.pwned])
        #expect(policy.weaknesses(of: "Baseball", email: nil) == [.pwned])  // the list is compared lower-cased
        #expect(policy.weaknesses(of: "ada.lovelace", email: "Ada.Lovelace@example.com") == [.pwned])
        #expect(policy.weaknesses(of: "ada@example.com", email: "ada@example.com") == [.pwned])
        #expect(CommonPasswords.set.count == 10_000)

        let strict = try PasswordPolicy(
            environment: ["PASSWORD_MIN_LENGTH": "12", "PASSWORD_REQUIRE": "lower,upper,digit,symbol"])
        #expect(strict.weaknesses(of: "Aa1!aaaaaaaa", email: nil).isEmpty)
        #expect(strict.weaknesses(of: "aa1!aaaaaaaa", email: nil) == [.characters])
        #expect(strict.weaknesses(of: "Aa1!", email: nil) == [.length])
        #expect(throws: SettingsError.self) { try PasswordPolicy(environment: ["PASSWORD_MIN_LENGTH": "3"]) }
        #expect(throws: SettingsError.self) { try PasswordPolicy(environment: ["PASSWORD_REQUIRE": "emoji"]) }
    }
}
