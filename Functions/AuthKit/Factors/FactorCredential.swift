import GatehouseJSON
import StoreCore

/// The public-key credential of a WebAuthn factor (Supabase's `factor_type: "webauthn"`), as
/// its factor's item holds it once a registration verified it: the credential's id, its COSE
/// public key (both base64url) and the authenticator's signature counter. The ceremonies that
/// make and check it are `PasskeyKit`'s `WebAuthnFactors`; AuthKit only keeps it.
///
/// It lives in the factor's own item only, never in `Passkeys` (no credential-id owner item),
/// so a factor's credential can never sign anyone in as a first factor: a passkey sign-in finds
/// no passkey of its id.
public struct FactorCredential: Sendable, Equatable {
    /// The `factor_type` of factors proved by a credential.
    public static let factorType = "webauthn"
    /// A verified WebAuthn factor's `amr` method (supabase/auth's `MFAWebAuthn`).
    public static let method = "mfa/webauthn"

    /// The credential's id, base64url.
    public let id: String
    /// Its COSE public key, base64url.
    public let publicKey: String
    /// The authenticator's signature counter last accepted (0 for synced passkeys, which keep it).
    public let signCount: UInt32

    public init(id: String, publicKey: String, signCount: UInt32) {
        self.id = id
        self.publicKey = publicKey
        self.signCount = signCount
    }

    /// The credential a factor's item holds; nil from one without (unverified, or another kind).
    init?(item: Item) {
        guard case .string(let id)? = item["credentialId"], case .string(let key)? = item["publicKey"],
            case .number(let count)? = item["signCount"], count >= 0, count <= Double(UInt32.max)
        else { return nil }
        self.init(id: id, publicKey: key, signCount: UInt32(count))
    }

    /// Its members in the factor's item.
    var members: Item {
        [
            "credentialId": .string(id), "publicKey": .string(publicKey), "signCount": .number(Double(signCount)),
        ]
    }
}
