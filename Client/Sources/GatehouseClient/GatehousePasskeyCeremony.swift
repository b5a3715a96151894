import Foundation

/// The beginning of a passkey ceremony (`GatehouseClient.passkeyRegistrationOptions`,
/// `passkeySignInOptions`): the challenge's id to send back with the credential, and the W3C
/// options (`PublicKeyCredentialCreationOptions` or `…RequestOptions`, JSON) for the platform's
/// authenticator.
public struct GatehousePasskeyCeremony: Sendable, Equatable {
    public var challengeID: String
    /// The options exactly as the server sent them (JSON).
    public var options: Data
    /// The options' `challenge`, base64url, and the RP ID they name (`rp.id` or `rpId`).
    public var challenge: String
    public var relyingPartyID: String
    public var expiresAt: Date
}
