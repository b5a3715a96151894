import AuthKit

extension HTTPRequest {
    /// The signed-in user's id: the verified subject (`sub`) the Lambda authorizer put in the
    /// request context for a token of Gatehouse's own `issuer` (`ISSUER`), which the context's
    /// `iss` must be. Throws `MissingSignedInUser` (401) on a route not behind the authorizer, and
    /// for another issuer's token (`TRUSTED_ISSUERS`): its subject is never a Gatehouse user.
    public func signedInUserID(issuer: String) throws(MissingSignedInUser) -> String {
        guard authorizerContext("iss") == issuer, let userID = authorizerContext("sub"), !userID.isEmpty else {
            throw MissingSignedInUser()
        }
        return userID
    }
}

/// A request that should carry a signed-in user and does not: answered 401 `unauthorized`.
public struct MissingSignedInUser: ClientError, Equatable {
    public var status: Int { 401 }
    public var code: String { "unauthorized" }
    public var description: String { "The request carries no signed-in user." }

    public init() {}
}
