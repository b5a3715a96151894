import AuthKit

extension HTTPRequest {
    /// The signed-in user's id: the verified subject (`sub`) the Lambda authorizer put in the
    /// request context. Throws `MissingSignedInUser` (401) on a route not behind the authorizer.
    public func signedInUserID() throws(MissingSignedInUser) -> String {
        guard let userID = authorizerContext("sub"), !userID.isEmpty else { throw MissingSignedInUser() }
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
