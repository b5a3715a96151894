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

    /// New hashes use one of OWASP's scrypt settings (N = 2^14, r = 8, p = 5); the setting of
    /// hashes made before (N = 2^13, r = 8, p = 1) is weaker, so those are redone at sign-in.
    @Test func newHashesUseAnOWASPSettingAndOlderOnesAreWeaker() {
        let owasp: [ScryptParameters] = [
            .init(logN: 17, r: 8, p: 1), .init(logN: 16, r: 8, p: 2), .init(logN: 15, r: 8, p: 3),
            .init(logN: 14, r: 8, p: 5), .init(logN: 13, r: 8, p: 10),
        ]
        #expect(owasp.contains(ScryptParameters.current))
        #expect(PasswordHasher().parameters == .current)
        #expect(ScryptParameters(logN: 13, r: 8, p: 1).isWeaker(than: .current))
        #expect(!ScryptParameters.current.isWeaker(than: .current))
    }

    /// A function hashes at today's cost unless `PASSWORD_HASH_COST` names another (tests of
    /// the built functions), never above the ceiling and, under STAGE prod, never below today's.
    @Test func aFunctionHashesAtTodaysCostUnlessToldOtherwiseOutsideProd() throws {
        #expect(try PasswordHasher(environment: [:]).parameters == .current)
        #expect(try PasswordHasher(environment: ["STAGE": "prod"]).parameters == .current)
        let cheap = try PasswordHasher(environment: ["PASSWORD_HASH_COST": "ln=10,r=8,p=1"])
        #expect(cheap.parameters == ScryptParameters(logN: 10, r: 8, p: 1))
        for refused in [
            ["PASSWORD_HASH_COST": "ln=10,r=8,p=1", "STAGE": "prod"], ["PASSWORD_HASH_COST": "ln=17,r=8,p=1"],
            ["PASSWORD_HASH_COST": "ln=10,r=8"], ["PASSWORD_HASH_COST": "cheap"],
        ] {
            #expect(throws: SettingsError.self, "\(refused)") { try PasswordHasher(environment: refused) }
        }
    }

    /// Stored hashes are tried up to today's cost and never above it: a tampered hash must not
    /// make one sign-in cost many (a denial of service).
    @Test func storedHashesAreTriedUpToTodaysCostOnly() throws {
        let key = PasswordHash.encode(Array(repeating: 1, count: 32))
        let salt = PasswordHash.encode(Array(repeating: 2, count: 16))
        func stored(_ parameters: String) -> PasswordHash? {
            PasswordHash(encoded: "$scrypt$\(parameters)$\(salt)$\(key)")
        }
        for accepted in ["ln=13,r=8,p=1", "ln=10,r=8,p=1", ScryptParameters.current.description, "ln=14,r=8,p=4"] {
            #expect(stored(accepted) != nil, "\(accepted)")
        }
        for refused in [
            "ln=16,r=8,p=4", "ln=14,r=8,p=6", "ln=15,r=8,p=2", "ln=15,r=8,p=3", "ln=17,r=8,p=1", "ln=14,r=16,p=5",
            "ln=9,r=8,p=1",
        ] {
            #expect(stored(refused) == nil, "\(refused)")
        }
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
