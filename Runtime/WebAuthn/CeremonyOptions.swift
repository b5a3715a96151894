import GatehouseJSON
import JOSE

/// The options a ceremony begins with, as `navigator.credentials.create()`/`.get()` and
/// `ASAuthorization…` take them in their JSON form (WebAuthn Level 3, §5.4 and §5.5, the shape
/// `PublicKeyCredential.parseCreationOptionsFromJSON` reads and supabase/auth answers): passkeys
/// only, so a resident (discoverable) key and user verification are required, and attestation
/// is `none`.
public enum CeremonyOptions {
    /// The algorithms offered, in the order of preference: ES256, EdDSA, RS256.
    public static let algorithms: [COSEKey.Algorithm] = [.es256, .edDSA, .rs256]

    /// A registration's options for the user `userHandle` (opaque bytes, never an address),
    /// shown as `userName`, under `challenge` (base64url), excluding the user's credentials
    /// `excluded` (their ids), valid `timeout` seconds. Not `discoverable` (a second factor's
    /// credential, named by the server in each request), the resident key is only discouraged.
    public static func creation(
        party: RelyingParty, partyName: String, userHandle: [UInt8], userName: String, challenge: String,
        excluded: [[UInt8]], timeout: Int, discoverable: Bool = true
    ) -> JSONValue {
        [
            "rp": ["id": .string(party.id), "name": .string(partyName)],
            "user": [
                "id": .string(Base64URL.encode(userHandle)), "name": .string(userName),
                "displayName": .string(userName),
            ],
            "challenge": .string(challenge),
            "pubKeyCredParams": .array(
                algorithms.map { ["type": "public-key", "alg": .number(Double($0.rawValue))] }),
            "timeout": .number(Double(timeout * 1000)),
            "excludeCredentials": .array(excluded.map(descriptor)),
            "authenticatorSelection": [
                "residentKey": discoverable ? "required" : "discouraged", "requireResidentKey": .bool(discoverable),
                "userVerification": "required",
            ],
            "attestation": "none",
        ]
    }

    /// An authentication's options under `challenge`: username-less (no credentials listed; the
    /// authenticator offers the user's discoverable ones) unless `allowed` names the credentials
    /// (their ids) that may answer, user verification required.
    public static func request(
        party: RelyingParty, challenge: String, timeout: Int, allowed: [[UInt8]] = []
    ) -> JSONValue {
        [
            "challenge": .string(challenge), "timeout": .number(Double(timeout * 1000)), "rpId": .string(party.id),
            "allowCredentials": .array(allowed.map(descriptor)), "userVerification": "required",
        ]
    }

    private static func descriptor(_ id: [UInt8]) -> JSONValue {
        ["type": "public-key", "id": .string(Base64URL.encode(id))]
    }
}
