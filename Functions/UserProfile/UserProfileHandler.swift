import AuthKit
import HTTPEdge
import LambdaRuntime

/// `GET /users/me` (and `/users/me/export`: `export`), behind the authorizer: the signed-in user, from the verified subject
/// (`sub`) the authorizer put in the request context.
struct UserProfileHandler: HTTPHandler {
    let accounts: Accounts
    /// Gatehouse's own issuer (`ISSUER`): only its tokens' users are read here.
    let issuer: String

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        if request.path.hasSuffix("/users/me/export") { return try await export(request) }
        return .json(200, try await accounts.profile(userID: try request.signedInUserID(issuer: issuer)).json)
    }
}
