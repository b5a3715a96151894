import Testing
import WebAuthn
import WebAuthnTesting

/// The CBOR decoder on RFC 8949's examples, on what WebAuthn never sends, and on hostile bytes:
/// truncations and mutations of a real attestation object, random bytes, length and depth
/// bombs. It refuses each with an error and never crashes.
struct CBORDecoderTests {
    /// A small deterministic generator (SplitMix64), so a failure is reproducible.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func rfc8949sExamples() throws {
        #expect(try CBORDecoder.decode([0x00]) == .unsigned(0))
        #expect(try CBORDecoder.decode([0x18, 0x64]) == .unsigned(100))
        #expect(try CBORDecoder.decode([0x1B, 0, 0, 0, 0xE8, 0xD4, 0xA5, 0x10, 0x00]) == .unsigned(1_000_000_000_000))
        #expect(try CBORDecoder.decode([0x38, 0x63]) == .negative(99))
        #expect(try CBORDecoder.decode([0x38, 0x63]).integer == -100)
        #expect(try CBORDecoder.decode([0x44, 1, 2, 3, 4]) == .bytes([1, 2, 3, 4]))
        #expect(try CBORDecoder.decode([0x62, 0xC3, 0xBC]) == .text("ü"))
        #expect(
            try CBORDecoder.decode([0x83, 1, 0x82, 2, 3, 0x82, 4, 5])
                == .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])]))
        #expect(
            try CBORDecoder.decode([0xA2, 0x61, 0x61, 1, 0x61, 0x62, 0x82, 2, 3])["b"]
                == .array([.unsigned(2), .unsigned(3)]))
        #expect(try CBORDecoder.decode([0xF4]) == .bool(false) && CBORDecoder.decode([0xF6]) == .null)
    }

    @Test func whatWebAuthnNeverSendsIsRefusedByName() {
        #expect(throws: CBORError.unsupported("an indefinite length", at: 0)) {
            try CBORDecoder.decode([0x5F, 0x41, 1, 0xFF])
        }
        #expect(throws: CBORError.unsupported("a tag", at: 0)) {
            try CBORDecoder.decode([0xC1, 0x1A, 0x51, 0x4B, 0x67, 0xB0])
        }
        #expect(throws: CBORError.unsupported("a float", at: 0)) { try CBORDecoder.decode([0xF9, 0x3C, 0x00]) }
        #expect(throws: CBORError.unsupported("the simple value 23", at: 0)) { try CBORDecoder.decode([0xF7]) }
        #expect(throws: CBORError.unsupported("reserved additional information 28", at: 0)) {
            try CBORDecoder.decode([0x1C])
        }
        #expect(throws: CBORError.duplicateKey(at: 0)) { try CBORDecoder.decode([0xA2, 1, 2, 1, 3]) }
        #expect(throws: CBORError.invalidText(at: 0)) { try CBORDecoder.decode([0x62, 0xC3, 0x28]) }
        #expect(throws: CBORError.trailingBytes(at: 1)) { try CBORDecoder.decode([0x01, 0x02]) }
        #expect(throws: CBORError.truncated) { try CBORDecoder.decode([]) }
    }

    @Test func lengthAndDepthBombsAreRefusedBeforeAnyAllocation() {
        // A byte string, an array and a map that claim 2^64-1 members in a few bytes.
        for major: UInt8 in [0x5B, 0x9B, 0xBB] {
            #expect(throws: CBORError.truncated) {
                try CBORDecoder.decode([major] + [UInt8](repeating: 0xFF, count: 8))
            }
        }
        #expect(throws: CBORError.tooLarge("nested deeper than 8")) {
            try CBORDecoder.decode([UInt8](repeating: 0x81, count: 100) + [0])
        }
        #expect(throws: CBORError.tooLarge("more than 512 items")) {
            try CBORDecoder.decode(CBOREncoder.head(4, 600) + [UInt8](repeating: 0, count: 600))
        }
    }

    @Test func everyTruncationAndMutationOfAnAttestationIsAnErrorNotACrash() throws {
        let (_, attestation) = try SoftwareAuthenticator().register(challenge: "abc", format: "packed")
        let party = RelyingParty(id: "localhost", origins: ["http://localhost:3000"])
        let client = SoftwareAuthenticator().clientData(type: "webauthn.create", challenge: "abc")
        for end in 0..<attestation.count {
            #expect(throws: (any Error).self) {
                try party.verifyRegistration(
                    clientDataJSON: client, attestationObject: Array(attestation[..<end]), challenge: "abc")
            }
        }
        var random = SplitMix(state: 48)
        var refused = 0
        for _ in 0..<3000 {
            var mutated = attestation
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                mutated[Int.random(in: 0..<mutated.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            do {
                _ = try party.verifyRegistration(clientDataJSON: client, attestationObject: mutated, challenge: "abc")
            } catch {
                refused += 1
            }
        }
        // Most mutations break a structure or the signature; none crashes.
        #expect(refused > 2900)
    }

    @Test func randomBytesAreAnErrorNotACrash() {
        var random = SplitMix(state: 2026)
        var decoded = 0
        for _ in 0..<20000 {
            let bytes = (0..<Int.random(in: 0...64, using: &random)).map { _ in
                UInt8.random(in: 0...255, using: &random)
            }
            if (try? CBORDecoder.decode(bytes)) != nil { decoded += 1 }
            _ = try? COSEKey(bytes: bytes)
            _ = try? AuthenticatorData(bytes)
        }
        #expect(decoded < 20000)
    }
}
