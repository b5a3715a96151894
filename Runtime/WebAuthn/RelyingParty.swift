import Crypto

/// The relying party's side of WebAuthn's two ceremonies (Level 3, §7.1 registration, §7.2
/// authentication): the checks that need no store. The caller issues and spends challenges,
/// finds credentials by id and user handle, and keeps counters.
public struct RelyingParty: Sendable {
    /// The RP ID: the API's domain (`localhost` locally).
    public let id: String
    /// The origins allowed: registered apps' web origins, and `https://<id>` for native apps.
    public let origins: Set<String>

    public init(id: String, origins: Set<String>) {
        self.id = id
        self.origins = origins
    }

    /// A credential registration proves, to store.
    public struct Registration: Sendable {
        public let credential: AuthenticatorData.AttestedCredential
        public let signCount: UInt32
        public let backupEligible: Bool
        public let backedUp: Bool
        /// `none`, or `packed` (its statement checked when self-attested, else not evaluated).
        public let attestationFormat: String
    }

    /// What an assertion proves: the counter to store and the backup state now.
    public struct Assertion: Sendable {
        public let signCount: UInt32
        public let backedUp: Bool
    }

    /// Checks a registration's `clientDataJSON` and `attestationObject` against `challenge` (the
    /// base64url one issued for it).
    public func verifyRegistration(
        clientDataJSON: [UInt8], attestationObject: [UInt8], challenge: String
    ) throws(WebAuthnError) -> Registration {
        try check(ClientData(clientDataJSON), type: "webauthn.create", challenge: challenge)
        let attestation = try AttestationObject(attestationObject)
        let data = attestation.authenticatorData
        try check(data)
        guard let credential = data.credential else { throw .missingCredential }
        try attestation.verifyStatement(clientDataHash: Array(SHA256.hash(data: clientDataJSON)))
        return Registration(
            credential: credential, signCount: data.signCount, backupEligible: data.flags.contains(.backupEligible),
            backedUp: data.flags.contains(.backedUp), attestationFormat: attestation.format)
    }

    /// Checks an assertion by the credential whose key is `publicKey` and whose stored counter
    /// is `storedCount` against `challenge`.
    public func verifyAssertion(
        clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8], challenge: String,
        publicKey: COSEKey, storedCount: UInt32
    ) throws(WebAuthnError) -> Assertion {
        try check(ClientData(clientDataJSON), type: "webauthn.get", challenge: challenge)
        let data = try AuthenticatorData(authenticatorData)
        try check(data)
        guard data.credential == nil else { throw .malformed("an assertion carries no new credential") }
        guard publicKey.isValidSignature(signature, for: authenticatorData + SHA256.hash(data: clientDataJSON))
        else { throw .badSignature }
        // Synced passkeys keep 0; any other counter must grow.
        if data.signCount != 0 || storedCount != 0, data.signCount <= storedCount { throw .counterRegressed }
        return Assertion(signCount: data.signCount, backedUp: data.flags.contains(.backedUp))
    }

    /// The client data's type, challenge (compared in constant time) and origin.
    private func check(_ client: ClientData, type: String, challenge: String) throws(WebAuthnError) {
        guard client.type == type else { throw .wrongType }
        guard Self.equal(Array(client.challenge.utf8), Array(challenge.utf8)) else { throw .wrongChallenge }
        guard origins.contains(client.origin), !client.crossOrigin else { throw .wrongOrigin }
    }

    /// The authenticator data's RP ID hash and flags: present and verified, both.
    private func check(_ data: AuthenticatorData) throws(WebAuthnError) {
        guard Self.equal(data.rpIDHash, Array(SHA256.hash(data: Array(id.utf8)))) else { throw .wrongRelyingParty }
        guard data.flags.contains(.userPresent) else { throw .userNotPresent }
        guard data.flags.contains(.userVerified) else { throw .userNotVerified }
    }

    /// Constant-time equality of two byte strings (their lengths are not secret).
    static func equal(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
