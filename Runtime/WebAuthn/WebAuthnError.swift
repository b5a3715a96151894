/// Why a WebAuthn response is refused: each check of the W3C verification procedure that can
/// fail has its own case, so a test and a log line can say which (never with the challenge,
/// the credential or the key in it).
public enum WebAuthnError: Error, Sendable, Equatable {
    /// Bytes that are not the CBOR an authenticator sends.
    case malformedCBOR(CBORError)
    /// A structure that parses but is not what WebAuthn defines here.
    case malformed(String)
    /// A COSE algorithm Gatehouse does not verify.
    case unsupportedAlgorithm(Int64)
    /// An attestation statement format other than `none` and `packed`.
    case unsupportedAttestation(String)
    /// `clientDataJSON`'s `type` is not the ceremony's.
    case wrongType
    /// `clientDataJSON`'s challenge is not the one issued.
    case wrongChallenge
    /// `clientDataJSON`'s origin is not one allowed.
    case wrongOrigin
    /// The authenticator data's RP ID hash is not SHA-256 of the RP ID.
    case wrongRelyingParty
    /// The user was not present (UP flag clear).
    case userNotPresent
    /// The user was not verified (UV flag clear): a passkey is both factors, so it must be.
    case userNotVerified
    /// The signature does not verify under the credential's key.
    case badSignature
    /// A registration without attested credential data, or an assertion with it.
    case missingCredential
    /// A non-zero signature counter that did not increase: a cloned authenticator, maybe.
    case counterRegressed
}
