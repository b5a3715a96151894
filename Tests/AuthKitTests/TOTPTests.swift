import AuthKit
import Testing

/// RFC 6238's own test vectors (SHA-1, 8 digits, its 20-byte ASCII secret), base32 as
/// authenticator apps read it, and the window of one step either way.
struct TOTPTests {
    static let secret = Array("12345678901234567890".utf8)

    @Test(arguments: [
        (59.0, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"),
        (1_234_567_890, "89005924"), (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
    ])
    func rfc6238SHA1Vectors(time: Double, expected: String) {
        #expect(TOTP.code(secret: Self.secret, step: TOTP.step(at: time), digits: 8) == expected)
        // Six digits are the last six of the same number.
        #expect(TOTP.code(secret: Self.secret, step: TOTP.step(at: time)) == String(expected.suffix(6)))
    }

    @Test func base32IsRFC4648sAndRoundTrips() throws {
        #expect(Base32.encode(Self.secret) == "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
        #expect(Base32.encode(Array("f".utf8)) == "MY")
        #expect(Base32.decode("gezdgnbvgy3tqojqgezdgnbvgy3tqojq") == Self.secret)
        #expect(Base32.decode("MY======") == Array("f".utf8))
        #expect(Base32.decode("M1") == nil)
        let bytes: [UInt8] = (0..<20).map { UInt8($0 * 13 % 256) }
        #expect(Base32.decode(Base32.encode(bytes)) == bytes)
    }

    @Test func oneStepOfSkewEitherWayAndNoMore() {
        let now = 1_800_000_015.0
        let step = TOTP.step(at: now)
        for offset in Int64(-1)...1 {
            let code = TOTP.code(secret: Self.secret, step: step + offset)
            #expect(TOTP.matchingStep(code, secret: Self.secret, at: now) == step + offset)
        }
        for offset: Int64 in [-2, 2] {
            let code = TOTP.code(secret: Self.secret, step: step + offset)
            #expect(TOTP.matchingStep(code, secret: Self.secret, at: now) == nil)
        }
        #expect(TOTP.matchingStep("12345", secret: Self.secret, at: now) == nil)
    }
}
