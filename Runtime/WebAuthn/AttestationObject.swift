/// A registration's attestation object (WebAuthn §6.5): its format, statement and
/// authenticator data. Passkeys are synced, so no attestation is trusted or required: `none`
/// is accepted, and `packed` is parsed, its self-attestation signature checked; a `packed`
/// statement with a certificate chain is not evaluated (no trust decision rests on it).
/// Other formats are refused by name.
struct AttestationObject {
    let format: String
    let statement: CBOR
    let authenticatorDataBytes: [UInt8]
    let authenticatorData: AuthenticatorData

    init(_ bytes: [UInt8]) throws(WebAuthnError) {
        let cbor: CBOR
        do {
            cbor = try CBORDecoder.decode(bytes)
        } catch {
            throw .malformedCBOR(error)
        }
        guard let format = cbor["fmt"]?.textString, let statement = cbor["attStmt"],
            case .map = statement, let data = cbor["authData"]?.byteString
        else { throw .malformed("an attestation object has fmt, attStmt and authData") }
        guard format == "none" || format == "packed" else { throw .unsupportedAttestation(String(format.prefix(32))) }
        self.format = format
        self.statement = statement
        authenticatorDataBytes = data
        authenticatorData = try AuthenticatorData(data)
    }

    /// `none`'s statement is empty; `packed` self-attestation's signature is the credential's
    /// own over the authenticator data and the client data's hash.
    func verifyStatement(clientDataHash: [UInt8]) throws(WebAuthnError) {
        guard format == "packed" else {
            guard statement == .map([]) else { throw .malformed("a none attestation has an empty statement") }
            return
        }
        guard let alg = statement["alg"]?.integer, let signature = statement["sig"]?.byteString else {
            throw .malformed("a packed statement has alg and sig")
        }
        // A chain (x5c) is attestation by the maker, not evaluated: nothing is trusted on it.
        guard statement["x5c"] == nil else { return }
        guard let key = authenticatorData.credential?.publicKey else { throw .missingCredential }
        guard alg == key.algorithm.rawValue else { throw .malformed("packed self-attestation's alg is not the key's") }
        guard key.isValidSignature(signature, for: authenticatorDataBytes + clientDataHash) else {
            throw .badSignature
        }
    }
}
