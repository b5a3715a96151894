import Crypto
import Foundation
import WebAuthn
import _CryptoExtras

/// A passkey authenticator in software, for the tests: makes credentials (P-256, RSA or
/// Ed25519), attestation objects (`none` or `packed` self-attestation) and assertions, with
/// whatever flags, counter, origin or RP ID a test asks, so that each check can be made to fail.
public struct SoftwareAuthenticator: Sendable {
    public init() {}

    public enum Key: Sendable {
        case p256(P256.Signing.PrivateKey)
        case rsa(_RSA.Signing.PrivateKey)
        case ed25519(Curve25519.Signing.PrivateKey)
    }

    public var key: Key = .p256(P256.Signing.PrivateKey())
    public var credentialID: [UInt8] = (0..<32).map { _ in UInt8.random(in: 0...255) }
    public var rpID = "localhost"
    public var origin = "http://localhost:3000"
    public var flags: AuthenticatorData.Flags = [.userPresent, .userVerified, .backupEligible, .backedUp]
    public var signCount: UInt32 = 0

    /// Whether it says it verified the user (the UV flag).
    public var verifiesUser: Bool {
        get { flags.contains(.userVerified) }
        set { if newValue { flags.insert(.userVerified) } else { flags.remove(.userVerified) } }
    }

    /// The COSE key of the credential.
    public var coseKey: CBOR {
        switch key {
        case .p256(let key):
            let point = Array(key.publicKey.x963Representation)
            return .map([
                .init(.unsigned(1), .unsigned(2)), .init(.unsigned(3), CBOREncoder.int(-7)),
                .init(CBOREncoder.int(-1), .unsigned(1)), .init(CBOREncoder.int(-2), .bytes(Array(point[1..<33]))),
                .init(CBOREncoder.int(-3), .bytes(Array(point[33..<65]))),
            ])
        case .rsa(let key):
            let (n, e) = Self.rsaIntegers(key.publicKey)
            return .map([
                .init(.unsigned(1), .unsigned(3)), .init(.unsigned(3), CBOREncoder.int(-257)),
                .init(CBOREncoder.int(-1), .bytes(n)), .init(CBOREncoder.int(-2), .bytes(e)),
            ])
        case .ed25519(let key):
            return .map([
                .init(.unsigned(1), .unsigned(1)), .init(.unsigned(3), CBOREncoder.int(-8)),
                .init(CBOREncoder.int(-1), .unsigned(6)),
                .init(CBOREncoder.int(-2), .bytes(Array(key.publicKey.rawRepresentation))),
            ])
        }
    }

    /// The modulus and exponent of an RSA public key, without leading zeros.
    public static func rsaIntegers(_ key: _RSA.Signing.PublicKey) -> ([UInt8], [UInt8]) {
        let primitives = try! key.getKeyPrimitives()
        return (Array(primitives.modulus.drop { $0 == 0 }), Array(primitives.publicExponent.drop { $0 == 0 }))
    }

    public func clientData(type: String, challenge: String, origin: String? = nil) -> [UInt8] {
        Array(
            #"{"type":"\#(type)","challenge":"\#(challenge)","origin":"\#(origin ?? self.origin)","crossOrigin":false}"#
                .utf8)
    }

    public func authenticatorData(attested: Bool) -> [UInt8] {
        var flags = self.flags
        if attested { flags.insert(.attestedCredential) }
        var data =
            Array(SHA256.hash(data: Array(rpID.utf8))) + [flags.rawValue] + CBOREncoder.bigEndian(UInt64(signCount), 4)
        if attested {
            data +=
                [UInt8](repeating: 0, count: 16) + CBOREncoder.bigEndian(UInt64(credentialID.count), 2) + credentialID
            data += CBOREncoder.encode(coseKey)
        }
        return data
    }

    public func sign(_ message: [UInt8]) throws -> [UInt8] {
        switch key {
        case .p256(let key): return Array(try key.signature(for: message).derRepresentation)
        case .rsa(let key):
            return Array(try key.signature(for: message, padding: .insecurePKCS1v1_5).rawRepresentation)
        case .ed25519(let key): return Array(try key.signature(for: message))
        }
    }

    /// A registration's client data and attestation object for `challenge`.
    public func register(
        challenge: String, format: String = "none"
    ) throws -> (clientData: [UInt8], attestation: [UInt8]) {
        let client = clientData(type: "webauthn.create", challenge: challenge)
        let data = authenticatorData(attested: true)
        var statement = CBOR.map([])
        if format == "packed" {
            let alg = coseKey[label: 3] ?? .null
            let signature = try sign(data + SHA256.hash(data: client))
            statement = .map([.init(.text("alg"), alg), .init(.text("sig"), .bytes(signature))])
        }
        let attestation = CBOR.map([
            .init(.text("fmt"), .text(format)), .init(.text("attStmt"), statement),
            .init(.text("authData"), .bytes(data)),
        ])
        return (client, CBOREncoder.encode(attestation))
    }

    /// An assertion's client data, authenticator data and signature for `challenge`.
    public func assert(
        challenge: String
    ) throws -> (clientData: [UInt8], authenticatorData: [UInt8], signature: [UInt8]) {
        let client = clientData(type: "webauthn.get", challenge: challenge)
        let data = authenticatorData(attested: false)
        return (client, data, try sign(data + SHA256.hash(data: client)))
    }
}
