#if canImport(AuthenticationServices) && !os(tvOS) && !os(watchOS)
import AuthenticationServices
import Foundation

/// The glue between `ASAuthorization`'s platform passkeys and Gatehouse's ceremonies: the
/// requests a ceremony's options make, and the `toJSON()`-shaped credential each result
/// goes back as. (Built only where AuthenticationServices exists; Gatehouse's tests drive the
/// HTTP calls with a software authenticator instead.)
///
/// ```swift
/// let begun = try await client.passkeySignInOptions(apiKey: key)
/// let request = GatehousePasskeyJSON.assertionRequest(for: begun)
/// // run `ASAuthorizationController(authorizationRequests: [request])`, then:
/// try await client.signInWithPasskey(
///     challengeID: begun.challengeID, credential: GatehousePasskeyJSON.json(assertion), apiKey: key)
/// ```
@available(iOS 15.0, macOS 12.0, visionOS 1.0, *)
public enum GatehousePasskeyJSON {
    /// The registration request of a ceremony begun by `passkeyRegistrationOptions`, for the
    /// user named `name` (the options' `user.name`) whose handle is `userID`.
    public static func registrationRequest(
        for ceremony: GatehousePasskeyCeremony
    ) -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest? {
        guard let options = try? JSONSerialization.jsonObject(with: ceremony.options) as? [String: Any],
            let user = options["user"] as? [String: Any], let name = user["name"] as? String,
            let handle = (user["id"] as? String).flatMap(base64URLDecoded),
            let challenge = base64URLDecoded(ceremony.challenge)
        else { return nil }
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(
            relyingPartyIdentifier: ceremony.relyingPartyID)
        let request = provider.createCredentialRegistrationRequest(challenge: challenge, name: name, userID: handle)
        request.userVerificationPreference = .required
        return request
    }

    /// The assertion request of a ceremony begun by `passkeySignInOptions` (no credentials
    /// listed: the system offers the user's passkeys for the RP ID).
    public static func assertionRequest(
        for ceremony: GatehousePasskeyCeremony
    ) -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest? {
        guard let challenge = base64URLDecoded(ceremony.challenge) else { return nil }
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(
            relyingPartyIdentifier: ceremony.relyingPartyID)
        let request = provider.createCredentialAssertionRequest(challenge: challenge)
        request.userVerificationPreference = .required
        return request
    }

    /// A registration's result as `registerPasskey` sends it.
    public static func json(_ registration: ASAuthorizationPlatformPublicKeyCredentialRegistration) -> Data {
        credential(
            id: registration.credentialID,
            response: [
                "clientDataJSON": base64URL(registration.rawClientDataJSON),
                "attestationObject": base64URL(registration.rawAttestationObject ?? Data()),
            ])
    }

    /// An assertion's result as `signInWithPasskey` sends it.
    public static func json(_ assertion: ASAuthorizationPlatformPublicKeyCredentialAssertion) -> Data {
        credential(
            id: assertion.credentialID,
            response: [
                "clientDataJSON": base64URL(assertion.rawClientDataJSON),
                "authenticatorData": base64URL(assertion.rawAuthenticatorData),
                "signature": base64URL(assertion.signature),
                "userHandle": (assertion.userID as Data?).map(base64URL) ?? "",
            ])
    }

    private static func credential(id: Data, response: [String: String]) -> Data {
        let object: [String: Any] = [
            "id": base64URL(id), "rawId": base64URL(id), "type": "public-key", "response": response,
            "clientExtensionResults": [String: Any](), "authenticatorAttachment": "platform",
        ]
        return (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func base64URLDecoded(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
#endif
