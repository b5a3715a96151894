/// An HTTP API's JWT authorizer (`Auth.Authorizers.{name}.JwtConfiguration`): API Gateway checks
/// the bearer token itself against the issuer's keys, with no function of the template.
public struct JWTAuthorizer: Sendable, Equatable {
    /// Its name in `Auth.Authorizers`, as routes name it.
    public let name: String
    /// `JwtConfiguration.issuer`: the exact `iss`; its keys are at `{issuer}/.well-known/jwks.json`.
    public let issuer: String
    /// `JwtConfiguration.audience`: a token's `aud` or `client_id` must be one of them.
    public let audiences: Set<String>
    /// The header that carries the token (`IdentitySource`, `$request.header.Authorization` by
    /// default), lower-cased.
    public let identityHeader: String

    public init(name: String, issuer: String, audiences: Set<String>, identityHeader: String = "authorization") {
        self.name = name
        self.issuer = issuer
        self.audiences = audiences
        self.identityHeader = identityHeader
    }

    /// Where the issuer's keys are.
    public var jwksURL: String {
        (issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer) + "/.well-known/jwks.json"
    }
}
