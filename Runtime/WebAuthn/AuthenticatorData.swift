/// Authenticator data (WebAuthn §6.1): the RP ID's hash, the flags, the signature counter and,
/// at registration, the new credential (its AAGUID, id and COSE key).
public struct AuthenticatorData: Sendable {
    /// The flags byte's bits.
    public struct Flags: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let userPresent = Flags(rawValue: 0x01)
        public static let userVerified = Flags(rawValue: 0x04)
        public static let backupEligible = Flags(rawValue: 0x08)
        public static let backedUp = Flags(rawValue: 0x10)
        public static let attestedCredential = Flags(rawValue: 0x40)
        public static let extensions = Flags(rawValue: 0x80)
    }

    /// A credential's data as registration attests it.
    public struct AttestedCredential: Sendable {
        public let aaguid: [UInt8]
        public let id: [UInt8]
        /// The COSE key exactly as encoded, to store.
        public let publicKeyBytes: [UInt8]
        public let publicKey: COSEKey
    }

    /// The longest credential id WebAuthn allows.
    public static let maximumCredentialIDLength = 1023

    public let rpIDHash: [UInt8]
    public let flags: Flags
    public let signCount: UInt32
    public let credential: AttestedCredential?

    /// Parses `bytes`; anything after the credential and the extensions is refused.
    public init(_ bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count >= 37 else { throw .malformed("authenticator data is at least 37 bytes") }
        rpIDHash = Array(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var rest = Array(bytes[37...])
        if flags.contains(.attestedCredential) {
            let (credential, length) = try Self.credential(rest)
            self.credential = credential
            rest.removeFirst(length)
        } else {
            credential = nil
        }
        if flags.contains(.extensions) {
            do {
                guard case .map = try CBORDecoder.decode(rest) else { throw WebAuthnError.malformed("extensions") }
            } catch let error as CBORError {
                throw .malformedCBOR(error)
            } catch {
                throw .malformed("the extensions are not a CBOR map")
            }
        } else if !rest.isEmpty {
            throw .malformed("authenticator data has \(rest.count) bytes too many")
        }
        if flags.contains(.backedUp), !flags.contains(.backupEligible) {
            throw .malformed("backed up but not backup eligible")
        }
    }

    /// The attested credential at the start of `bytes` and how many bytes it took.
    private static func credential(_ bytes: [UInt8]) throws(WebAuthnError) -> (AttestedCredential, Int) {
        guard bytes.count >= 18 else { throw .malformed("attested credential data is truncated") }
        let length = Int(bytes[16]) << 8 | Int(bytes[17])
        guard length >= 16, length <= maximumCredentialIDLength, bytes.count > 18 + length else {
            throw .malformed("a credential id is 16 to 1023 bytes, then its key")
        }
        let keyStart = 18 + length
        let key: CBOR
        let keyLength: Int
        do {
            (key, keyLength) = try CBORDecoder.decodePrefix(Array(bytes[keyStart...]))
        } catch {
            throw .malformedCBOR(error)
        }
        let credential = AttestedCredential(
            aaguid: Array(bytes[0..<16]), id: Array(bytes[18..<keyStart]),
            publicKeyBytes: Array(bytes[keyStart..<(keyStart + keyLength)]), publicKey: try COSEKey(key))
        return (credential, keyStart + keyLength)
    }
}
