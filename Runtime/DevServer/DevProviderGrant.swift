/// A code the dev provider issued: what `/oauth2/token` checks the redemption against, and
/// the person it names.
struct DevProviderGrant: Sendable {
    let clientID: String
    let redirectURI: String
    /// The client's S256 challenge.
    let challenge: String
    /// The `nonce` of the authorize request, echoed in the id token.
    let nonce: String?
    let person: DevPerson
    let expiresAt: Double
}
