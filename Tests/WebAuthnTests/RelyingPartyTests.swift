import Crypto
import Foundation
import Testing
import WebAuthn
import WebAuthnTesting
import _CryptoExtras

/// WebAuthn's two ceremonies against a software authenticator: what passes, and each check of
/// the verification procedure made to fail on its own.
struct RelyingPartyTests {
    static let party = RelyingParty(id: "localhost", origins: ["http://localhost:3000", "https://localhost"])
    static let challenge = "q2mLzQy7o3mNf0l2b4ZtLw"

    static func registered(
        _ authenticator: SoftwareAuthenticator, format: String = "none"
    ) throws -> RelyingParty.Registration {
        let (client, attestation) = try authenticator.register(challenge: challenge, format: format)
        return try party.verifyRegistration(
            clientDataJSON: client, attestationObject: attestation, challenge: challenge)
    }

    static func asserted(
        _ authenticator: SoftwareAuthenticator, key: COSEKey, storedCount: UInt32 = 0
    ) throws -> RelyingParty.Assertion {
        let (client, data, signature) = try authenticator.assert(challenge: challenge)
        return try party.verifyAssertion(
            clientDataJSON: client, authenticatorData: data, signature: signature, challenge: challenge,
            publicKey: key, storedCount: storedCount)
    }

    @Test(arguments: ["p256", "rsa", "ed25519"], ["none", "packed"])
    func aPasskeyRegistersAndSignsIn(_ kind: String, _ format: String) throws {
        var authenticator = SoftwareAuthenticator()
        switch kind {
        case "rsa": authenticator.key = .rsa(try _RSA.Signing.PrivateKey(keySize: .bits2048))
        case "ed25519": authenticator.key = .ed25519(Curve25519.Signing.PrivateKey())
        default: break
        }
        let registration = try Self.registered(authenticator, format: format)
        #expect(registration.credential.id == authenticator.credentialID)
        #expect(registration.attestationFormat == format && registration.backupEligible && registration.backedUp)
        let stored = try COSEKey(bytes: registration.credential.publicKeyBytes)
        #expect(stored.algorithm == registration.credential.publicKey.algorithm)
        let assertion = try Self.asserted(authenticator, key: stored)
        #expect(assertion.signCount == 0 && assertion.backedUp)
    }

    @Test func anIPhonesOriginIsTheRPIDOverHTTPS() throws {
        var authenticator = SoftwareAuthenticator()
        authenticator.origin = "https://localhost"
        let key = try Self.registered(authenticator).credential.publicKey
        #expect(try Self.asserted(authenticator, key: key).signCount == 0)
    }

    @Test func eachCheckOfARegistrationFailsOnItsOwn() throws {
        func refusal(_ change: (inout SoftwareAuthenticator) -> Void) -> WebAuthnError? {
            var authenticator = SoftwareAuthenticator()
            change(&authenticator)
            do {
                _ = try Self.registered(authenticator)
                return nil
            } catch {
                return error as? WebAuthnError
            }
        }
        #expect(refusal { $0.origin = "https://evil.example" } == .wrongOrigin)
        #expect(refusal { $0.rpID = "evil.example" } == .wrongRelyingParty)
        #expect(refusal { $0.flags.remove(.userVerified) } == .userNotVerified)
        #expect(refusal { $0.flags.remove(.userPresent) } == .userNotPresent)
        #expect(refusal { $0.flags.remove(.backupEligible) } == .malformed("backed up but not backup eligible"))
        #expect(
            refusal { $0.credentialID = [1, 2, 3] } == .malformed("a credential id is 16 to 1023 bytes, then its key"))

        let authenticator = SoftwareAuthenticator()
        let (client, attestation) = try authenticator.register(challenge: Self.challenge)
        #expect(throws: WebAuthnError.wrongChallenge) {
            try Self.party.verifyRegistration(
                clientDataJSON: client, attestationObject: attestation, challenge: "other")
        }
        let get = authenticator.clientData(type: "webauthn.get", challenge: Self.challenge)
        #expect(throws: WebAuthnError.wrongType) {
            try Self.party.verifyRegistration(
                clientDataJSON: get, attestationObject: attestation, challenge: Self.challenge)
        }
        let framed = Array(
            String(decoding: client, as: UTF8.self).replacingOccurrences(
                of: #""crossOrigin":false"#, with: #""crossOrigin":true"#
            ).utf8)
        #expect(throws: WebAuthnError.wrongOrigin) {
            try Self.party.verifyRegistration(
                clientDataJSON: framed, attestationObject: attestation, challenge: Self.challenge)
        }
    }

    @Test func aPackedSelfAttestationMustBeTheCredentialsOwnSignature() throws {
        let authenticator = SoftwareAuthenticator()
        var (client, attestation) = try authenticator.register(challenge: Self.challenge, format: "packed")
        // The client data changed after signing: the statement's signature no longer covers it.
        client = authenticator.clientData(
            type: "webauthn.create", challenge: Self.challenge, origin: "https://localhost")
        #expect(throws: WebAuthnError.badSignature) {
            try Self.party.verifyRegistration(
                clientDataJSON: client, attestationObject: attestation, challenge: Self.challenge)
        }
        // Another format is refused by name.
        let other = try CBORDecoder.decode(attestation)
        guard case .map(var entries) = other else { return }
        entries[0] = .init(.text("fmt"), .text("tpm"))
        attestation = CBOREncoder.encode(.map(entries))
        #expect(throws: WebAuthnError.unsupportedAttestation("tpm")) {
            try Self.party.verifyRegistration(
                clientDataJSON: try authenticator.register(challenge: Self.challenge).clientData,
                attestationObject: attestation, challenge: Self.challenge)
        }
    }

    @Test func eachCheckOfAnAssertionFailsOnItsOwn() throws {
        var authenticator = SoftwareAuthenticator()
        let key = try Self.registered(authenticator).credential.publicKey
        var (client, data, signature) = try authenticator.assert(challenge: Self.challenge)
        func verify(challenge: String = Self.challenge, storedCount: UInt32 = 0) throws -> RelyingParty.Assertion {
            try Self.party.verifyAssertion(
                clientDataJSON: client, authenticatorData: data, signature: signature, challenge: challenge,
                publicKey: key, storedCount: storedCount)
        }
        #expect(throws: WebAuthnError.wrongChallenge) { try verify(challenge: "q2mLzQy7o3mNf0l2b4ZtLx") }
        signature[signature.count - 1] ^= 1
        #expect(throws: WebAuthnError.badSignature) { try verify() }
        // Another credential's key.
        (client, data, signature) = try authenticator.assert(challenge: Self.challenge)
        let stranger = try Self.registered(SoftwareAuthenticator()).credential.publicKey
        #expect(throws: WebAuthnError.badSignature) {
            try Self.party.verifyAssertion(
                clientDataJSON: client, authenticatorData: data, signature: signature, challenge: Self.challenge,
                publicKey: stranger, storedCount: 0)
        }
        authenticator.flags.remove(.userVerified)
        (client, data, signature) = try authenticator.assert(challenge: Self.challenge)
        #expect(throws: WebAuthnError.userNotVerified) { try verify() }
        authenticator.flags.insert(.userVerified)
        authenticator.rpID = "localhost.evil"
        (client, data, signature) = try authenticator.assert(challenge: Self.challenge)
        #expect(throws: WebAuthnError.wrongRelyingParty) { try verify() }
    }

    @Test func aCounterMustGrowUnlessItIsZero() throws {
        var authenticator = SoftwareAuthenticator()
        let key = try Self.registered(authenticator).credential.publicKey
        #expect(try Self.asserted(authenticator, key: key, storedCount: 0).signCount == 0)
        authenticator.signCount = 7
        #expect(try Self.asserted(authenticator, key: key, storedCount: 6).signCount == 7)
        #expect(throws: WebAuthnError.counterRegressed) { try Self.asserted(authenticator, key: key, storedCount: 7) }
        authenticator.signCount = 0
        #expect(throws: WebAuthnError.counterRegressed) { try Self.asserted(authenticator, key: key, storedCount: 7) }
    }

    @Test func aKeyVerifiesOnlyWithItsOwnAlgorithm() throws {
        let p256 = SoftwareAuthenticator().coseKey
        guard case .map(var entries) = p256 else { return }
        entries[1] = .init(.unsigned(3), CBOREncoder.int(-257))
        #expect(throws: WebAuthnError.malformed("COSE key type 2 does not go with algorithm -257")) {
            try COSEKey(.map(entries))
        }
        entries[1] = .init(.unsigned(3), CBOREncoder.int(-35))
        #expect(throws: WebAuthnError.unsupportedAlgorithm(-35)) { try COSEKey(.map(entries)) }
        // An RSA key below 2048 bits.
        var small = SoftwareAuthenticator()
        small.key = .rsa(try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024)))
        #expect(throws: WebAuthnError.malformed("an RSA key is 2048 to 8192 bits")) { try COSEKey(small.coseKey) }
    }
}
