import AuthKit
import HTTPEdge
import LambdaRuntime

extension UserProfileHandler {
    /// `GET /users/me/export`, behind the authorizer as `GET /users/me` is: everything kept about
    /// the signed-in user (`Accounts.export`: profile, identities, factors, passkeys, sessions),
    /// never a password hash, a secret, a key or a token (`no-store`, as every JSON answer).
    func export(_ request: HTTPRequest) async throws -> HTTPResponse {
        let userID = try request.signedInUserID(issuer: issuer)
        return .json(200, try await accounts.export(userID: userID))
    }
}
